'use client';

import { Button, Input, Label, ListBox, Select, TextField } from '@heroui/react';
import { FileTrigger } from 'react-aria-components';
import { type DragEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  analyseChatExport,
  type ChatExportAnalysis,
  type DateOrder,
  parseWhatsappExport,
  type ParsedChatExport,
} from '@/engine/chat-export';
import { formatCount, formatDateTime } from '@/lib/format';
import type { ActionResult } from '@/lib/server/action-result';
import { maxSavedBytes, maxSavedMessages, type SaveChatExportInput, type SavedChatExport, type SavedChatExportSummary } from '../schemas';
import { ChatExportAnalysisView } from './chat-export-analysis-view';

/** The largest file read: the parser takes about a second per 10 MB, in the page's own thread. */
export const maxUploadBytes = 20 * 1024 * 1024;

type Loaded = { fileName: string; text: string };
type Shown = { title: string; analysis: ChatExportAnalysis; parsed: ParsedChatExport | null; fileName: string; timeZone: string };

type Props = {
  saved: SavedChatExportSummary[];
  save: (input: SaveChatExportInput) => Promise<ActionResult<SavedChatExportSummary>>;
  open: (id: string) => Promise<ActionResult<SavedChatExport>>;
  remove: (id: string) => Promise<ActionResult<{ id: string }>>;
};

const dateOrderChoices: [DateOrder | 'auto', string][] = [
  ['auto', 'Work it out from the file'],
  ['dmy', 'Day/month/year'],
  ['mdy', 'Month/day/year'],
  ['ymd', 'Year/month/day'],
];
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const noSubscription = () => () => {};

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A WhatsApp "Export chat" file analysed in the browser (docs/decisions/033): the file is read and parsed here
 * and never sent, unless the user chooses to save the parsed conversation for themselves.
 */
export function ChatExportPanel({ saved: initialSaved, save, open, remove }: Props) {
  // The phone's zone is most often the browser's: the start, until the user types another (UTC on the server).
  const defaultZone = useSyncExternalStore(noSubscription, browserZone, () => 'UTC');
  const [typedZone, setTimeZone] = useState<string | null>(null);
  const timeZone = typedZone ?? defaultZone;
  const [dateOrder, setDateOrder] = useState<DateOrder | 'auto'>('auto');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [saved, setSaved] = useState(initialSaved);
  const [confirming, setConfirming] = useState<SavedChatExportSummary | null>(null);
  const confirmHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (confirming !== null) confirmHeading.current?.focus();
  }, [confirming]);

  function analyse(file: Loaded, zone: string, order: DateOrder | 'auto') {
    setError(null);
    setNotice(null);
    if (!validZone(zone)) {
      setError(`Time zone: “${zone}” is not a time zone we know. Give an IANA name such as Europe/London.`);
      return;
    }
    setBusy('Analysing…');
    // Let the "Analysing…" state paint before the parser holds the thread.
    window.setTimeout(() => {
      try {
        const parsed = parseWhatsappExport(file.text, { timeZone: zone, ...(order === 'auto' ? {} : { dateOrder: order }) });
        setShown({
          title: `Analysis of ${file.fileName}`,
          analysis: analyseChatExport(parsed, { timeZone: zone }),
          parsed,
          fileName: file.fileName,
          timeZone: zone,
        });
      } catch {
        setError('This file could not be read as a WhatsApp export.');
        setShown(null);
      } finally {
        setBusy(null);
      }
    }, 20);
  }

  async function load(file: File | undefined) {
    if (file === undefined) return;
    setError(null);
    if (file.size > maxUploadBytes) {
      setError(`The file is ${formatCount(file.size / 1024 / 1024)} MB; the largest we analyse is ${maxUploadBytes / 1024 / 1024} MB.`);
      return;
    }
    const text = await file.text();
    const next = { fileName: file.name, text };
    setLoaded(next);
    analyse(next, timeZone, dateOrder);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    void load(event.dataTransfer.files[0]);
  }

  async function saveShown() {
    if (shown?.parsed == null) return;
    const input = {
      fileName: shown.fileName,
      timeZone: shown.timeZone,
      dateOrder: shown.parsed.dateOrder,
      messages: shown.parsed.messages,
    };
    if (input.messages.length > maxSavedMessages || JSON.stringify(input.messages).length > maxSavedBytes) {
      setError(
        `This conversation is too large to save: at most ${formatCount(maxSavedMessages)} messages and 1 MB. It can still be analysed here.`,
      );
      return;
    }
    setBusy('Saving…');
    setError(null);
    const result = await save(input).catch(() => null);
    setBusy(null);
    if (result === null) return setError('We could not reach the server. Nothing was saved.');
    if (!result.ok) return setError(result.error.message);
    setSaved((list) => [result.data, ...list]);
    setNotice(`Saved ${result.data.fileName}. Only you can see it.`);
  }

  async function openSaved(entry: SavedChatExportSummary) {
    setBusy('Opening…');
    setError(null);
    setNotice(null);
    const result = await open(entry.id).catch(() => null);
    setBusy(null);
    if (result === null) return setError('We could not reach the server.');
    if (!result.ok) return setError(result.error.message);
    const data = result.data;
    setShown({
      title: `Saved conversation: ${data.fileName}`,
      analysis: analyseChatExport({ messages: data.messages, participants: data.participants }, { timeZone: data.timeZone }),
      parsed: null,
      fileName: data.fileName,
      timeZone: data.timeZone,
    });
  }

  async function confirmDelete() {
    if (confirming === null) return;
    const entry = confirming;
    setBusy('Deleting…');
    const result = await remove(entry.id).catch(() => null);
    setBusy(null);
    setConfirming(null);
    if (result === null) return setError('We could not reach the server. Nothing was deleted.');
    if (!result.ok) return setError(result.error.message);
    setSaved((list) => list.filter((item) => item.id !== entry.id));
    setNotice(`Deleted ${entry.fileName}.`);
  }

  return (
    <div className="flex flex-col gap-4">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col gap-3 rounded-2xl border-2 border-dashed p-4 ${dragging ? 'border-accent bg-surface' : 'border-separator'}`}
        data-testid="chat-drop-zone"
      >
        <div className="flex flex-col gap-1 text-sm">
          <span id="chat-file-label" className="font-medium">
            WhatsApp export (.txt, up to {maxUploadBytes / 1024 / 1024} MB) — choose a file or drop it here
          </span>
          <FileTrigger
            acceptedFileTypes={['.txt', 'text/plain']}
            data-testid="chat-file"
            onSelect={(files) => void load(files?.[0] ?? undefined)}
          >
            <Button
              variant="secondary"
              size="sm"
              className="self-start"
              id="chat-file-choose"
              aria-labelledby="chat-file-choose chat-file-label"
            >
              Choose a file
            </Button>
          </FileTrigger>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <TextField className="w-56" variant="secondary" value={timeZone} onChange={setTimeZone}>
            <Label>Time zone of the phone</Label>
            <Input spellCheck={false} />
          </TextField>
          <Select
            className="w-64"
            variant="secondary"
            value={dateOrder}
            onChange={(key) => {
              if (key !== null) setDateOrder(key as DateOrder | 'auto');
            }}
          >
            <Label>Date order</Label>
            <Select.Trigger>
              <Select.Value />
              <Select.Indicator />
            </Select.Trigger>
            <Select.Popover>
              <ListBox>
                {dateOrderChoices.map(([order, text]) => (
                  <ListBox.Item key={order} id={order} textValue={text}>
                    {text}
                    <ListBox.ItemIndicator />
                  </ListBox.Item>
                ))}
              </ListBox>
            </Select.Popover>
          </Select>
          <Button
            variant="secondary"
            size="sm"
            isDisabled={loaded === null || busy !== null}
            onPress={() => loaded && analyse(loaded, timeZone, dateOrder)}
          >
            Analyse again
          </Button>
        </div>
        <p className="text-xs text-muted">
          The file is read in this browser and not sent anywhere unless you choose to save the conversation.
        </p>
      </div>

      <div aria-live="polite" className="min-h-6">
        {busy === null ? null : <p role="status">{busy}</p>}
        {notice === null ? null : <p role="status">{notice}</p>}
      </div>
      {error === null ? null : (
        <p role="alert" className="text-danger">
          {error}
        </p>
      )}

      {shown === null ? null : (
        <>
          {shown.parsed === null ? null : (
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="primary" size="sm" isDisabled={busy !== null} onPress={() => void saveShown()}>
                Save this conversation
              </Button>
              <span className="text-sm text-muted">Keeps the parsed messages for you alone; you can delete them at any time.</span>
            </div>
          )}
          <ChatExportAnalysisView analysis={shown.analysis} title={shown.title} />
        </>
      )}

      <section aria-labelledby="saved-heading" className="flex flex-col gap-2">
        <h3 id="saved-heading" className="text-lg font-semibold">
          Your saved conversations
        </h3>
        {saved.length === 0 ? (
          <p className="text-sm text-muted">None saved yet.</p>
        ) : (
          <ul className="flex flex-col gap-2" data-testid="saved-chats">
            {saved.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-center gap-3 rounded-xl border border-separator px-3 py-2">
                <span className="font-medium">{entry.fileName}</span>
                <span className="text-sm text-muted">
                  {formatCount(entry.messageCount)} messages, {formatCount(entry.participants.length)} participants, saved{' '}
                  {formatDateTime(entry.createdAt)}
                </span>
                <Button
                  variant="secondary"
                  size="sm"
                  isDisabled={busy !== null}
                  onPress={() => void openSaved(entry)}
                  aria-label={`Open ${entry.fileName}`}
                >
                  Open
                </Button>
                <Button
                  variant="danger"
                  size="sm"
                  isDisabled={busy !== null}
                  onPress={() => setConfirming(entry)}
                  aria-label={`Delete ${entry.fileName}`}
                >
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
        {confirming === null ? null : (
          <section
            aria-labelledby="confirm-delete-heading"
            className="flex flex-col gap-3 rounded-xl border border-danger p-4"
            data-testid="confirm-delete"
          >
            <h4 id="confirm-delete-heading" ref={confirmHeading} tabIndex={-1} className="font-semibold">
              Delete {confirming.fileName}?
            </h4>
            <p className="text-sm">This removes the saved messages for good. The file on your phone is not affected.</p>
            <div className="flex gap-2">
              <Button variant="danger" size="sm" isDisabled={busy !== null} onPress={() => void confirmDelete()}>
                Delete for good
              </Button>
              <Button variant="secondary" size="sm" onPress={() => setConfirming(null)}>
                Cancel
              </Button>
            </div>
          </section>
        )}
      </section>
    </div>
  );
}
