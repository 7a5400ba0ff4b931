'use client';

import { Button, Description, FieldError, Form, Input, Label, TextArea, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { startTransition, useActionState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';
import type { DefinitionVersions } from '../server/get-lifestyle-surveys-page';

type SaveState = { fieldErrors: Record<string, string>; error?: string; notice?: string };
const noFieldErrors: Record<string, string> = {};

/**
 * Admins: the next version of a survey, edited as JSON. The server checks it (shape, likelihoods summing to 1
 * per persona, ids) and names the field it refuses; every version is kept and the save is audited.
 */
export function SurveyDefinitionEditor({
  definition,
  save,
}: {
  definition: DefinitionVersions;
  save: (input: unknown) => Promise<ActionResult<{ surveyKey: string; version: number }>>;
}) {
  const router = useRouter();
  const [saved, submit, saving] = useActionState(
    async (_previous: SaveState, data: FormData): Promise<SaveState> => {
      const result = await save({
        surveyKey: definition.surveyKey,
        definitionJson: String(data.get('definitionJson') ?? ''),
        changeNote: String(data.get('changeNote') ?? ''),
      }).catch(() => null);
      if (result === null) return { fieldErrors: {}, error: 'We could not reach the server. Nothing was saved.' };
      if (!result.ok) return { fieldErrors: {}, error: result.error.message };
      router.refresh();
      return { fieldErrors: {}, notice: `Saved as version ${result.data.version}.` };
    },
    { fieldErrors: noFieldErrors },
  );
  return (
    <details className="rounded-lg border border-separator p-3">
      <summary className="cursor-pointer font-medium">
        Edit “{definition.title}” (version {definition.version}; {definition.versions.length} version
        {definition.versions.length === 1 ? '' : 's'} kept)
      </summary>
      <ul className="my-2 text-sm text-muted">
        {definition.versions.map((version) => (
          <li key={version.version}>
            Version {version.version}, {version.createdAt.slice(0, 10)}: {version.changeNote ?? 'as shipped'}
          </li>
        ))}
      </ul>
      <Form
        key={`${definition.surveyKey}-${definition.version}`}
        className="flex flex-col gap-3"
        aria-label={`Edit the ${definition.title} survey`}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          startTransition(() => submit(data));
        }}
      >
        <TextField name="definitionJson" defaultValue={definition.json} isRequired>
          <Label>Definition (JSON)</Label>
          <TextArea rows={16} className="font-mono text-xs" />
          <Description>
            Each choice answer needs P(answer | persona) for every persona; they must sum to 1 per persona within a question.
          </Description>
          <FieldError />
        </TextField>
        <TextField name="changeNote" isRequired maxLength={400}>
          <Label>What changed</Label>
          <Input />
          <FieldError />
        </TextField>
        {saving || saved.error === undefined ? null : (
          <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
            {saved.error}
          </p>
        )}
        <p role="status" className="text-sm">
          {saving ? '' : (saved.notice ?? '')}
        </p>
        <div>
          <Button type="submit" variant="primary" isDisabled={saving}>
            Save as version {definition.version + 1}
          </Button>
        </div>
      </Form>
    </details>
  );
}
