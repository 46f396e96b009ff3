import { DateInput } from '@/components/ui/date-input';
import { Input, Label } from '@/components/ui/input';

export function CheckGroup({
  legend,
  name,
  options,
  selected,
}: {
  legend: string;
  name: string;
  options: Array<{ value: string; label: string }>;
  selected: string[];
}) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name={name}
            value={o.value}
            defaultChecked={selected.includes(o.value)}
            className="h-4 w-4 accent-[var(--primary)]"
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

export function Range({
  legend,
  from,
  to,
  type,
  fromValue,
  toValue,
  min,
  max,
}: {
  legend: string;
  from: string;
  to: string;
  type: 'number';
  fromValue?: string | number;
  toValue?: string | number;
  min?: number;
  max?: number;
}) {
  const end = (name: string, value: string | number | undefined, side: string, placeholder: string) => (
    <>
      <label className="sr-only" htmlFor={`f-${name}`}>{`${legend} ${side}`}</label>
      <Input
        id={`f-${name}`}
        name={name}
        type={type}
        min={min}
        max={max}
        defaultValue={value ?? ''}
        placeholder={placeholder}
        className="min-w-0 px-2"
      />
    </>
  );
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-center gap-2">
        {end(from, fromValue, 'from', 'min')}
        <span aria-hidden className="text-muted-fg">
          –
        </span>
        {end(to, toValue, 'to', 'max')}
      </div>
    </fieldset>
  );
}

/** A free-text filter that suggests the values the data holds. */
export function SuggestField({
  id,
  name,
  label,
  labelClassName,
  suggestions,
  defaultValue,
  maxLength,
}: {
  id: string;
  name: string;
  label: string;
  labelClassName?: string;
  suggestions: readonly string[];
  defaultValue?: string;
  maxLength: number;
}) {
  return (
    <>
      <Label htmlFor={id} className={labelClassName}>
        {label}
      </Label>
      <Input
        id={id}
        name={name}
        list={`${id}-list`}
        defaultValue={defaultValue ?? ''}
        maxLength={maxLength}
        autoComplete="off"
      />
      <datalist id={`${id}-list`}>
        {suggestions.map((d) => (
          <option key={d} value={d} />
        ))}
      </datalist>
    </>
  );
}

/** A range of days (UTC), each typed as YYYY-MM-DD with the format beside it. */
export function DayRange({
  legend,
  from,
  to,
  fromValue,
  toValue,
  errors,
}: {
  legend: string;
  from: string;
  to: string;
  fromValue?: string;
  toValue?: string;
  errors: Record<string, string>;
}) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className="flex flex-col gap-1">
        <label className="sr-only" htmlFor={`f-${from}`}>{`${legend} from`}</label>
        <DateInput
          id={`f-${from}`}
          name={from}
          defaultValue={fromValue ?? ''}
          error={errors[from]}
          className="w-full"
        />
        <label className="sr-only" htmlFor={`f-${to}`}>{`${legend} to`}</label>
        <DateInput id={`f-${to}`} name={to} defaultValue={toValue ?? ''} error={errors[to]} className="w-full" />
      </div>
    </fieldset>
  );
}
