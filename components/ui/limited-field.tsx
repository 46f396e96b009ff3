'use client';
import * as React from 'react';
import { Input, Textarea } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/**
 * Text fields that say their limit before it bites. No `maxLength`: a browser limit cuts a paste
 * without a word, so the whole text stays in the field, a counter shows how much is left, and
 * past the limit the field is marked invalid with how much to cut. The server refuses the same
 * length with its own message (the action's schema), so nothing is ever shortened silently.
 */
const n = (v: number) => v.toLocaleString('en-US');

/** The counter line under a field: "120 / 2,000", or how far over the limit it is. */
export function LimitCounter({ id, length, limit }: { id: string; length: number; limit: number }) {
  const over = length - limit;
  // Shown quietly until the last tenth of the limit, so short fields do not shout.
  const near = length >= limit * 0.9;
  return (
    <p id={id} className={cn('text-xs tabular-nums', over > 0 ? 'text-danger' : near ? 'text-fg' : 'text-muted-fg')}>
      {over > 0 ? (
        <span role="alert">
          {n(length)} / {n(limit)} characters: {n(over)} too many. Shorten it to save; nothing is cut.
        </span>
      ) : (
        <>
          {n(length)} / {n(limit)} characters
        </>
      )}
    </p>
  );
}

type Common = { limit: number; id: string };
type Field = HTMLInputElement | HTMLTextAreaElement;

/**
 * The shared behaviour of both fields: the length as typed (or as given when controlled), reset
 * with the form, and the field's ARIA pointing at the counter.
 */
function useLimited<E extends Field>(
  limit: number,
  id: string,
  props: { value?: unknown; defaultValue?: unknown; onInput?: React.FormEventHandler<E> } & React.AriaAttributes,
) {
  const ref = React.useRef<E>(null);
  const [typed, setTyped] = React.useState(String(props.value ?? props.defaultValue ?? '').length);
  React.useEffect(() => {
    const el = ref.current;
    const form = el?.form;
    if (!el || !form) return;
    // A form's reset event fires before the fields change: read them once it is done.
    const onReset = () => setTimeout(() => setTyped(el.value.length));
    form.addEventListener('reset', onReset);
    return () => form.removeEventListener('reset', onReset);
  }, []);
  const length = props.value !== undefined ? String(props.value).length : typed;
  const counter = `${id}-count`;
  return {
    field: {
      ref,
      id,
      'aria-invalid': length > limit || props['aria-invalid'] === true || undefined,
      'aria-describedby': [props['aria-describedby'], counter].filter(Boolean).join(' '),
      onInput: (e: React.FormEvent<E>) => {
        setTyped(e.currentTarget.value.length);
        props.onInput?.(e);
      },
    },
    counter: <LimitCounter id={counter} length={length} limit={limit} />,
  };
}

export function LimitedTextarea({
  limit,
  id,
  ...props
}: Common & Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'maxLength' | 'id'>) {
  const { field, counter } = useLimited<HTMLTextAreaElement>(limit, id, props);
  return (
    <>
      <Textarea {...props} {...field} />
      {counter}
    </>
  );
}

export function LimitedInput({
  limit,
  id,
  ...props
}: Common & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'maxLength' | 'id'>) {
  const { field, counter } = useLimited<HTMLInputElement>(limit, id, props);
  return (
    <>
      <Input {...props} {...field} />
      {counter}
    </>
  );
}
