/** An error (role alert) or a notice (role status) under a sign-in form. */
export function FormMessage({ error, notice }: { error?: string | null; notice?: string | null }) {
  if (error) {
    return (
      <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
        {error}
      </p>
    );
  }
  if (notice) {
    return (
      <p role="status" className="rounded-xl bg-surface px-3 py-2 text-sm">
        {notice}
      </p>
    );
  }
  return null;
}
