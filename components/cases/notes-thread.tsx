'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { FieldError, Label } from '@/components/ui/input';
import { addNoteAction, editNoteAction } from '@/lib/actions/cases';
import { NOTE_MAX_CHARS } from '@/lib/db/case-states';
import type { NoteView } from '@/lib/cases/queries';
import { LimitedTextarea } from '@/components/ui/limited-field';
import { LocalTime } from '@/components/time/local-time';
import { submitWith } from '@/components/ui/submit-with';

/**
 * The notes of an execution: plain text (rendered as text), append-only. Editing one's own note
 * adds its next version; earlier versions stay readable under "history".
 */
export function NotesThread({
  executionId,
  notes,
  userId,
}: {
  executionId: string;
  notes: NoteView[];
  userId: string;
}) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [errors, setErrors] = React.useState<string[] | undefined>();
  const [editing, setEditing] = React.useState<string | null>(null);
  return (
    <div className="flex flex-col gap-3">
      {notes.length ? (
        <ol className="flex flex-col gap-3" aria-label="Notes">
          {notes.map((n) => {
            const current = n.versions[n.versions.length - 1];
            return (
              <li key={n.noteId} className="rounded-md border border-border p-2 text-sm">
                <p className="text-xs text-muted-fg">
                  {n.author} · <LocalTime value={current.at} />
                  {n.versions.length > 1 ? ` · edited (version ${current.version})` : ''}
                </p>
                {editing === n.noteId ? (
                  <EditNote
                    noteId={n.noteId}
                    version={current.version}
                    body={current.body}
                    onDone={() => {
                      setEditing(null);
                      router.refresh();
                    }}
                  />
                ) : (
                  <p className="mt-1 whitespace-pre-wrap break-words">{current.body}</p>
                )}
                <div className="mt-1 flex items-center gap-2">
                  {n.authorId === userId && editing !== n.noteId ? (
                    <Button size="sm" variant="ghost" onClick={() => setEditing(n.noteId)}>
                      Edit
                    </Button>
                  ) : null}
                  {n.versions.length > 1 ? (
                    <details className="text-xs">
                      <summary className="cursor-pointer text-muted-fg">History</summary>
                      <ol className="mt-1 flex flex-col gap-1">
                        {n.versions.map((v) => (
                          <li key={v.version}>
                            <span className="text-muted-fg">
                              Version {v.version}, <LocalTime value={v.at} />:
                            </span>{' '}
                            <span className="whitespace-pre-wrap">{v.body}</span>
                          </li>
                        ))}
                      </ol>
                    </details>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="text-sm text-muted-fg">
          No notes yet. Notes stay in Verdict: they are never sent to the service.
        </p>
      )}
      <form
        noValidate
        aria-label="Add a note"
        className="flex flex-col gap-1"
        onSubmit={submitWith({ executionId }, (fd, form) => {
          start(async () => {
            const r = await addNoteAction(fd);
            if (r.ok) {
              setErrors(undefined);
              form.reset();
              router.refresh();
            } else setErrors(r.fieldErrors?.body ?? [r.error]);
          });
        })}
      >
        <Label htmlFor="note-body">Add a note</Label>
        <LimitedTextarea id="note-body" limit={NOTE_MAX_CHARS} name="body" required aria-invalid={Boolean(errors)} />
        <FieldError messages={errors} />
        <Button type="submit" size="sm" variant="secondary" disabled={pending} className="self-start">
          {pending ? 'Saving…' : 'Add note'}
        </Button>
      </form>
    </div>
  );
}

function EditNote({
  noteId,
  version,
  body,
  onDone,
}: {
  noteId: string;
  version: number;
  body: string;
  onDone(): void;
}) {
  const [pending, start] = React.useTransition();
  const [errors, setErrors] = React.useState<string[] | undefined>();
  return (
    <form
      noValidate
      aria-label="Edit the note"
      className="mt-1 flex flex-col gap-1"
      onSubmit={submitWith({ noteId, version: String(version) }, (fd) => {
        start(async () => {
          const r = await editNoteAction(fd);
          if (r.ok) onDone();
          else setErrors(r.fieldErrors?.body ?? [r.error]);
        });
      })}
    >
      <LimitedTextarea
        id={`note-edit-${noteId}`}
        limit={NOTE_MAX_CHARS}
        name="body"
        aria-label="Note"
        defaultValue={body}
        required
      />
      <FieldError messages={errors} />
      <Button type="submit" size="sm" disabled={pending} className="self-start">
        Save new version
      </Button>
    </form>
  );
}
