import type { z } from 'zod';
import type { FieldErrors } from '@/lib/errors';
import { fieldErrorsOf } from '@/lib/parse-input';
import type { ActionResult } from '@/lib/server/action-result';

/**
 * A settings form's submit: checks the input with the server's own schema first (a typo needs no round trip),
 * then sends it, and shows the server's field errors and message, or that the server could not be reached.
 * Returns the parsed input and the server's data when both succeeded, else null (the form already says why).
 */
export async function submitChecked<Schema extends z.ZodType, Input, Data>(options: {
  schema: Schema;
  input: Input;
  send: (input: Input) => Promise<ActionResult<Data>>;
  /** Said when the request fails before the server answers ("Nothing was started; please try again."). */
  unreachableMessage: string;
  setErrors: (errors: FieldErrors) => void;
  setMessage: (message: string | null) => void;
  setBusy: (busy: boolean) => void;
}): Promise<{ checked: z.output<Schema>; data: Data } | null> {
  const { setErrors, setMessage, setBusy } = options;
  setMessage(null);
  const checked = options.schema.safeParse(options.input);
  if (!checked.success) {
    setErrors(fieldErrorsOf(checked.error));
    return null;
  }
  setErrors({});
  setBusy(true);
  const result = await options.send(options.input).catch(() => null);
  setBusy(false);
  if (result === null) {
    setMessage(options.unreachableMessage);
    return null;
  }
  if (!result.ok) {
    setErrors(result.error.fieldErrors ?? {});
    setMessage(result.error.message);
    return null;
  }
  return { checked: checked.data, data: result.data };
}
