import { FormField, Input, Select } from '@/components/ui/input';
import { LimitedInput } from '@/components/ui/limited-field';
import { QUEUE_NAME_MAX } from '@/lib/cases/form-rules';

type QueueValues = { name?: string; slaHours: number; priority: number; minRole: string };

/**
 * A queue's own settings, the same fields where a queue is saved from the list and where it is
 * edited: both post to actions that share one schema (lib/cases/schema.ts).
 */
export function QueueFields({
  ids,
  values,
  errors,
}: {
  ids: { name: string; sla: string; priority: string; role: string };
  values: QueueValues;
  errors: Record<string, string[]>;
}) {
  return (
    <>
      <FormField id={ids.name} label="Name" errors={errors.name} className="gap-1">
        {({ id, 'aria-invalid': invalid }) => (
          <LimitedInput
            id={id}
            limit={QUEUE_NAME_MAX}
            name="name"
            defaultValue={values.name}
            required
            aria-invalid={invalid}
          />
        )}
      </FormField>
      <div className="grid grid-cols-3 gap-3">
        <FormField id={ids.sla} label="SLA (hours)" errors={errors.slaHours} className="gap-1">
          {({ id }) => (
            <Input id={id} name="slaHours" type="number" min={1} max={8760} defaultValue={values.slaHours} required />
          )}
        </FormField>
        <FormField id={ids.priority} label="Priority" errors={errors.priority} className="gap-1">
          {({ id }) => (
            <Input id={id} name="priority" type="number" min={0} max={1000} defaultValue={values.priority} required />
          )}
        </FormField>
        <FormField id={ids.role} label="Worked by" className="gap-1">
          {({ id }) => (
            <Select id={id} name="minRole" defaultValue={values.minRole}>
              <option value="analyst">Analysts</option>
              <option value="manager">Managers</option>
            </Select>
          )}
        </FormField>
      </div>
    </>
  );
}
