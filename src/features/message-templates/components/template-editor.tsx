'use client';

import { Button, Description, FieldError, Form, Input, Label, ListBox, Select, TextArea, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { startTransition, useActionState } from 'react';
import { placeholderNames, templateApprovalStatuses, whatsAppCategories } from '@/engine/messaging';
import { findSurveyInvitationTemplate } from '@/engine/surveys/message-invitation';
import type { ActionResult } from '@/lib/server/action-result';
import type { StoredTemplate, TemplateUpdateInput } from '../schemas';
import { approvalLabels, categoryLabels } from './labels';

type SaveState = { fieldErrors: Record<string, string>; error?: string; notice?: string };
const noFieldErrors: Record<string, string> = {};

type Props = {
  template: StoredTemplate;
  save: (input: TemplateUpdateInput) => Promise<ActionResult<StoredTemplate>>;
};

/**
 * Admins: a new version of one template. The server decides (permission, the engine's checks, the version
 * opened); the form shows what it refused, naming the field, and keeps what was typed.
 */
export function TemplateEditor({ template, save }: Props) {
  const router = useRouter();
  const [saved, submit, saving] = useActionState(
    async (_previous: SaveState, data: FormData): Promise<SaveState> => {
      const result = await save({
        templateId: template.templateId,
        language: template.language,
        expectedVersion: template.version,
        body: String(data.get('body') ?? ''),
        approvalStatus: String(data.get('approvalStatus') ?? '') as TemplateUpdateInput['approvalStatus'],
        whatsAppCategory: String(data.get('whatsAppCategory') ?? '') as TemplateUpdateInput['whatsAppCategory'],
        note: String(data.get('note') ?? ''),
      }).catch(() => null);
      if (result === null) return { fieldErrors: {}, error: 'We could not reach the server. Nothing was saved.' };
      if (!result.ok) return { fieldErrors: result.error.fieldErrors ?? {}, error: result.error.message };
      // The cards, badges and history are rendered on the server: read them again.
      router.refresh();
      return { fieldErrors: {}, notice: `Saved as version ${result.data.version}.` };
    },
    { fieldErrors: noFieldErrors },
  );

  return (
    <Form
      // A new current version (this admin's or another's, after a reload) starts the form again from it.
      key={`${template.templateId}-${template.language}-${template.version}`}
      className="flex max-w-2xl flex-col gap-4"
      validationErrors={saving ? noFieldErrors : saved.fieldErrors}
      aria-label={`Edit template ${template.templateId}`}
      onSubmit={(event) => {
        // Dispatched by hand, not through <form action>, which would reset what was typed after a refusal.
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => submit(data));
      }}
    >
      <TextField name="body" defaultValue={template.body} isRequired>
        <Label>Body</Label>
        <TextArea rows={4} />
        <Description>
          {findSurveyInvitationTemplate(template.templateId) !== undefined
            ? 'Placeholders: {{survey}} (the survey’s title), {{questions}} (how many at most). Its Start and Not now buttons are part of the template Meta approves.'
            : `Placeholders: ${placeholderNames.map((name) => `{{${name}}}`).join(', ')}. The reply buttons and SMS keywords are added when sent.`}
        </Description>
        <FieldError />
      </TextField>
      <div className="flex flex-wrap gap-4">
        <Select name="approvalStatus" defaultValue={template.whatsApp.approval} className="w-56" variant="secondary">
          <Label>WhatsApp approval</Label>
          <Select.Trigger>
            <Select.Value />
            <Select.Indicator />
          </Select.Trigger>
          <Select.Popover>
            <ListBox>
              {templateApprovalStatuses.map((status) => (
                <ListBox.Item key={status} id={status} textValue={approvalLabels[status]}>
                  {approvalLabels[status]}
                  <ListBox.ItemIndicator />
                </ListBox.Item>
              ))}
            </ListBox>
          </Select.Popover>
          <FieldError />
        </Select>
        <Select name="whatsAppCategory" defaultValue={template.whatsApp.category} className="w-56" variant="secondary">
          <Label>WhatsApp category</Label>
          <Select.Trigger>
            <Select.Value />
            <Select.Indicator />
          </Select.Trigger>
          <Select.Popover>
            <ListBox>
              {whatsAppCategories.map((category) => (
                <ListBox.Item key={category} id={category} textValue={categoryLabels[category]}>
                  {categoryLabels[category]}
                  <ListBox.ItemIndicator />
                </ListBox.Item>
              ))}
            </ListBox>
          </Select.Popover>
          <FieldError />
        </Select>
      </div>
      <TextField name="note" maxLength={500}>
        <Label>Note (why this version)</Label>
        <Input />
        <FieldError />
      </TextField>
      {saving ? null : saved.error ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          {saved.error}
        </p>
      ) : null}
      <p role="status" className="text-sm">
        {saving ? '' : (saved.notice ?? '')}
      </p>
      <div>
        <Button type="submit" variant="primary" isDisabled={saving}>
          Save as version {template.version + 1}
        </Button>
      </div>
    </Form>
  );
}
