import type { ReactNode } from 'react';

/**
 * A surface that groups one thing: a settings section, a summary, a form. `title` makes it a
 * labelled region with a heading; `actions` sit beside the heading.
 */
export function Card({
  title,
  headingLevel = 2,
  actions,
  flat,
  className,
  children,
  as: Tag = 'section',
}: {
  title?: ReactNode;
  headingLevel?: 2 | 3 | 4;
  actions?: ReactNode;
  flat?: boolean;
  className?: string;
  children: ReactNode;
  as?: 'section' | 'div' | 'article';
}) {
  const Heading = `h${headingLevel}` as 'h2';
  return (
    <Tag className={['card', flat && 'card-flat', className].filter(Boolean).join(' ')}>
      {(title || actions) && (
        <div className="card-head">
          {title && <Heading className="card-title">{title}</Heading>}
          {actions && <div className="form-actions">{actions}</div>}
        </div>
      )}
      {children}
    </Tag>
  );
}

/** Label/value pairs: a person's details, a service's state. */
export function Facts({ items, className }: { items: readonly (readonly [ReactNode, ReactNode] | null | false | undefined)[]; className?: string }) {
  return (
    <dl className={className ? `facts ${className}` : 'facts'}>
      {items.filter((i): i is readonly [ReactNode, ReactNode] => !!i).map(([term, value], index) => (
        <div key={index} style={{ display: 'contents' }}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
