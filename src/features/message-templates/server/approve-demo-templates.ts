import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';

export const demoApprovalNote =
  'Demo dataset: recorded as approved by WhatsApp so the demo shows template messages. A real deployment records Meta’s review here.';

/**
 * The demo dataset's templates as a WhatsApp Business account would have them: the utility templates
 * (reminders, refills, check-ins) approved, the marketing ones never submitted. Without it, nothing outside the
 * 24-hour window could go by WhatsApp in the demo (WhatsApp delivers only approved templates there) and every
 * demo message would fall back to SMS. Adds version 2 only to a template still at the library's version 1 and
 * not submitted; an edited template is left alone. Idempotent; returns how many versions it added.
 */
export async function approveDemoTemplates(options: { database: Database }): Promise<number> {
  const result = (await options.database.execute(sql`
    insert into message_template_versions
      (template_id, language, version, body, whatsapp_name, whatsapp_language, whatsapp_category, approval_status, edited_by, note)
    select v.template_id, v.language, 2, v.body, v.whatsapp_name, v.whatsapp_language, v.whatsapp_category, 'approved', null, ${demoApprovalNote}
    from message_template_versions v
    where v.version = 1 and v.whatsapp_category = 'utility' and v.approval_status = 'not-submitted'
      and not exists (
        select 1 from message_template_versions later
        where later.template_id = v.template_id and later.language = v.language and later.version > 1
      )
    on conflict (template_id, language, version) do nothing
    returning 1`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}
