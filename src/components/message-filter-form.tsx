import { buttonVariants } from '@heroui/react';
import { type Channel, channelLabels, channels } from '@/lib/domain/channels';
import { FormSelect } from './form-select';

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
      <FormSelect
        name="channel"
        label="Channel"
        defaultValue={filters.channel ?? ''}
        options={[
          ...(allChannels ? [['', 'All channels'] as const] : []),
          ...channels.map((channel) => [channel, channelLabels[channel]] as const),
        ]}
      />
      <FormSelect
        name="persona"
        label="Persona"
        defaultValue={filters.persona ?? ''}
        options={[['', 'All personas'], ...options.personas.map((persona) => [persona, personaLabel(persona)] as const)]}
      />
      <FormSelect
        name="product"
        label="Product"
        defaultValue={filters.productId ?? ''}
        options={[['', 'All products'], ...options.products.map((product) => [product.id, product.name] as const)]}
      />
      <button type="submit" className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
        Apply filters
      </button>
    </form>
  );
}
