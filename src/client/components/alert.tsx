import type { ReactNode } from 'react';

interface AlertProps {
  kind: 'status' | 'alert';
  children: ReactNode;
}

/** A message in the page: role="alert" for failures, role="status" for good news. Never window.alert. */
export function Alert({ kind, children }: AlertProps) {
  return (
    <div role={kind} className={`message message-${kind}`}>
      {children}
    </div>
  );
}
