import type { ChipNames } from '@/lib/executions/list-params';

/** What the executions list needs for case work: the queues and people its filters offer, and chip names. */
export interface CaseWorkOptions {
  queues: Array<{ id: string; name: string }>;
  people: Array<{ id: string; name: string }>;
  names: ChipNames;
}
