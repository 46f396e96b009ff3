import type * as React from 'react';

/**
 * A form's submit handler that sends its fields with `context` set on top: the ids, versions and
 * keys that travel with the form without being fields a person fills in.
 */
export function submitWith(context: Record<string, string>, send: (data: FormData, form: HTMLFormElement) => void) {
  return (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    for (const [name, value] of Object.entries(context)) data.set(name, value);
    send(data, form);
  };
}
