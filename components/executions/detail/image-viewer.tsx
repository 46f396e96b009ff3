'use client';
import { Maximize2, RotateCcw, RotateCw, ZoomIn, ZoomOut, type LucideIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';

function useTransform() {
  const [zoom, setZoom] = React.useState(1);
  const [rotation, setRotation] = React.useState(0);
  return {
    zoom,
    rotation,
    style: { transform: `scale(${zoom}) rotate(${rotation}deg)` },
    zoomIn: () => setZoom((z) => Math.min(4, +(z + 0.25).toFixed(2))),
    zoomOut: () => setZoom((z) => Math.max(0.5, +(z - 0.25).toFixed(2))),
    rotateLeft: () => setRotation((r) => (r + 270) % 360),
    rotateRight: () => setRotation((r) => (r + 90) % 360),
    reset: () => {
      setZoom(1);
      setRotation(0);
    },
  };
}

function ToolButton({ onClick, label, icon: Icon }: { onClick: () => void; label: string; icon: LucideIcon }) {
  return (
    <Button size="icon" variant="ghost" className="h-7 w-7" onClick={onClick} aria-label={label}>
      <Icon aria-hidden className="h-4 w-4" />
    </Button>
  );
}

function Controls({ t, label }: { t: ReturnType<typeof useTransform>; label: string }) {
  return (
    <div role="toolbar" aria-label={`${label} controls`} className="flex items-center gap-1">
      <ToolButton onClick={t.zoomOut} label={`Zoom out ${label}`} icon={ZoomOut} />
      <span className="w-10 text-center text-xs tabular-nums text-muted-fg" aria-live="polite">
        {Math.round(t.zoom * 100)}%
      </span>
      <ToolButton onClick={t.zoomIn} label={`Zoom in ${label}`} icon={ZoomIn} />
      <ToolButton onClick={t.rotateLeft} label={`Rotate ${label} left`} icon={RotateCcw} />
      <ToolButton onClick={t.rotateRight} label={`Rotate ${label} right`} icon={RotateCw} />
      {t.zoom !== 1 || t.rotation !== 0 ? (
        <Button size="sm" variant="ghost" className="h-7 px-2" onClick={t.reset}>
          Reset
        </Button>
      ) : null}
    </div>
  );
}

/**
 * One image of a credential, loaded from the authenticated proxy route (never cached by the
 * browser, every load audited), with zoom and rotate, and a larger view in a dialog.
 */
export function ImageViewer({ src, label }: { src: string; label: string }) {
  const small = useTransform();
  const large = useTransform();
  const [failed, setFailed] = React.useState(false);
  return (
    <figure className="flex flex-col gap-2">
      <div className="relative flex h-56 items-center justify-center overflow-hidden rounded-md border border-border bg-muted/40">
        {failed ? (
          <p className="px-4 text-center text-sm text-muted-fg">
            The image could not be loaded. It may have been deleted at the service.
          </p>
        ) : (
          // The proxy route streams bytes from the cache or the service; next/image would cache them.
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={src}
            alt={label}
            className="max-h-full max-w-full object-contain transition-transform"
            style={small.style}
            onError={() => setFailed(true)}
            draggable={false}
          />
        )}
      </div>
      <figcaption className="flex flex-wrap items-center justify-between gap-1">
        <span className="text-xs font-medium">{label}</span>
        {!failed ? (
          <span className="flex items-center gap-1">
            <Controls t={small} label={label} />
            <Dialog>
              <DialogTrigger asChild>
                <Button size="icon" variant="ghost" className="h-7 w-7" aria-label={`Open ${label} larger`}>
                  <Maximize2 aria-hidden className="h-4 w-4" />
                </Button>
              </DialogTrigger>
              <DialogContent title={label} className="w-[min(96vw,64rem)]">
                <div className="flex flex-col gap-2">
                  <Controls t={large} label={label} />
                  <div
                    tabIndex={0}
                    className="flex h-[70vh] items-center justify-center overflow-auto rounded-md bg-muted/40"
                  >
                    {/* eslint-disable-next-line @next/next/no-img-element */}
                    <img
                      src={src}
                      alt={label}
                      className="max-h-full max-w-full object-contain transition-transform"
                      style={large.style}
                      draggable={false}
                    />
                  </div>
                </div>
              </DialogContent>
            </Dialog>
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
