import type { TemplatePreview } from '../schemas';

/** A WhatsApp message as the phone shows it: the text in a bubble, the three quick-reply buttons under it. */
export function WhatsAppBubble({ preview, label }: { preview: NonNullable<TemplatePreview['whatsApp']>; label: string }) {
  return (
    <figure aria-label={label} className="flex max-w-sm flex-col gap-1" data-testid="whatsapp-bubble">
      <figcaption className="text-xs font-medium text-muted">WhatsApp</figcaption>
      <p className="rounded-2xl rounded-tl-sm bg-[#dcf8c6] px-3 py-2 text-sm text-[#111b21] shadow-sm">{preview.text}</p>
      {/* A picture of the buttons the patient taps, not controls on this page. */}
      <ul aria-label="Quick-reply buttons" className="grid grid-cols-3 gap-1">
        {preview.buttons.map((title) => (
          <li key={title} className="rounded-xl bg-white px-2 py-1.5 text-center text-sm font-medium text-[#00664f] shadow-sm">
            {title}
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** An SMS as sent: sender label, body, the reply keywords and STOP; with its segments (each is billed). */
export function SmsBubble({ preview, label }: { preview: NonNullable<TemplatePreview['sms']>; label: string }) {
  return (
    <figure aria-label={label} className="flex max-w-sm flex-col gap-1" data-testid="sms-bubble">
      <figcaption className="text-xs font-medium text-muted">
        SMS · {preview.segments} {preview.segments === 1 ? 'segment' : 'segments'} ({preview.encoding.toUpperCase()})
      </figcaption>
      <p className="whitespace-pre-line rounded-2xl rounded-tl-sm bg-default px-3 py-2 text-sm text-default-foreground">{preview.text}</p>
      <p className="text-xs text-muted">
        Reply keywords: {preview.keywords.map(({ keyword, label: meaning }) => `${keyword} (${meaning})`).join(', ')}, STOP to opt out.
      </p>
    </figure>
  );
}
