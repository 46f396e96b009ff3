/** The kinds of shared value rings are built from, and the cut-off for weak links. Browser-safe. */
export const LINK_KINDS = ['document', 'face', 'device', 'ip', 'email', 'phone', 'address'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export const LINK_KIND_LABELS: Record<LinkKind, string> = {
  document: 'Document',
  face: 'Face',
  device: 'Device',
  ip: 'IP address',
  email: 'E-mail',
  phone: 'Phone',
  address: 'Address',
};

/**
 * A value shared by more executions than this is a weak link: shown on the ring, never joined.
 * A carrier's NAT address or a placeholder phone number would otherwise chain thousands of
 * strangers into one ring; organised fraud reuses a device or an address dozens of times, not
 * hundreds (lib/rings/README.md).
 */
export const WEAK_LINK_CUTOFF = 200;
