'use client';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Up and down buttons that swap an item with its neighbour in `order` (queues, reasons). */
export function MoveButtons({
  name,
  id,
  order,
  disabled,
  onMove,
}: {
  name: string;
  id: string;
  order: string[];
  disabled: boolean;
  onMove(next: string[]): void;
}) {
  const i = order.indexOf(id);
  const move = (delta: number) => {
    const next = [...order];
    [next[i], next[i + delta]] = [next[i + delta], next[i]];
    onMove(next);
  };
  return (
    <>
      <Button
        size="icon"
        variant="ghost"
        aria-label={`Move ${name} up`}
        disabled={disabled || i <= 0}
        onClick={() => move(-1)}
      >
        <ArrowUp aria-hidden className="h-4 w-4" />
      </Button>
      <Button
        size="icon"
        variant="ghost"
        aria-label={`Move ${name} down`}
        disabled={disabled || i < 0 || i >= order.length - 1}
        onClick={() => move(1)}
      >
        <ArrowDown aria-hidden className="h-4 w-4" />
      </Button>
    </>
  );
}
