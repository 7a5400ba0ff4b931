import { buttonVariants } from '@heroui/react';
import { type Channel, channelLabels, channels } from '@/lib/domain/channels';

const selectClass = 'rounded-lg border border-separator bg-background px-2 py-1.5';

/**
 * The channel, persona and product filters of the message pages as a plain GET form (works without
 * JavaScript; the address can be shared), keeping the period's parameters.
 */
export function MessageFilterForm({
  path,
  label,
  periodParams,
  filters,
  options,
  allChannels,
  personaLabel = (persona) => persona,
  className = 'flex flex-wrap items-end gap-3',
}: {
  path: string;
  /** The form's accessible name. */
  label: string;
  periodParams: Record<string, string | undefined>;
  filters: { channel: Channel | null; persona: string | null; productId: string | null };
  options: { personas: readonly string[]; products: readonly { id: string; name: string }[] };
  /** Offer "All channels" (a page about one channel at a time does not). */
  allChannels: boolean;
  personaLabel?: (persona: string) => string;
  className?: string;
}) {
  return (
    <form method="get" action={path} className={className} aria-label={label}>
      {Object.entries(periodParams).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <label className="flex flex-col gap-1 text-sm">
        Channel
        <select name="channel" defaultValue={filters.channel ?? ''} className={selectClass}>
          {allChannels ? <option value="">All channels</option> : null}
          {channels.map((channel) => (
            <option key={channel} value={channel}>
              {channelLabels[channel]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Persona
        <select name="persona" defaultValue={filters.persona ?? ''} className={selectClass}>
          <option value="">All personas</option>
          {options.personas.map((persona) => (
            <option key={persona} value={persona}>
              {personaLabel(persona)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Product
        <select name="product" defaultValue={filters.productId ?? ''} className={selectClass}>
          <option value="">All products</option>
          {options.products.map((product) => (
            <option key={product.id} value={product.id}>
              {product.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
        Apply filters
      </button>
    </form>
  );
}
