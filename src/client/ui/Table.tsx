import { useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp, ChevronLeft, ChevronRight } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Cell, Column, Row, Table as AriaTable, TableBody, TableHeader, type SortDescriptor } from 'react-aria-components';
import { Button } from './Button';

export interface TableColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable: the value rows are ordered by. */
  sortValue?: (row: T) => string | number | null | undefined;
  /** The column that names the row (screen readers announce it with each cell). One per table. */
  rowHeader?: boolean;
  /** Hide the header text (an actions column) but keep it for screen readers. */
  hideHeader?: boolean;
}

/**
 * A table of rows (React Aria's grid: arrow keys move between cells and into the buttons in
 * them, Tab leaves the table), sorted by a column header and paged. Sorting and paging happen
 * here, on the rows given; `empty` shows when there are none.
 */
export function DataTable<T>({
  label,
  rows,
  rowKey,
  columns,
  pageSize = 25,
  initialSort,
  empty,
}: {
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly TableColumn<T>[];
  pageSize?: number;
  initialSort?: SortDescriptor;
  empty?: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const [sort, setSort] = useState<SortDescriptor | undefined>(initialSort);
  const [page, setPage] = useState(0);

  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.id === sort.column);
    if (!column?.sortValue) return rows;
    const collator = new Intl.Collator(i18n.locale, { numeric: true, sensitivity: 'base' });
    const value = column.sortValue;
    const direction = sort!.direction === 'descending' ? -1 : 1;
    return [...rows].sort((a, b) => {
      const x = value(a);
      const y = value(b);
      if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;
      return direction * (typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y)));
    });
  }, [rows, sort, columns, i18n.locale]);

  const pages = Math.max(1, Math.ceil(sorted.length / pageSize));
  const current = Math.min(page, pages - 1);
  const visible = sorted.slice(current * pageSize, (current + 1) * pageSize);

  if (rows.length === 0 && empty) return <>{empty}</>;
  return (
    <div className="table-wrap">
      <AriaTable aria-label={label} className="table" sortDescriptor={sort} onSortChange={setSort}>
        <TableHeader>
          {columns.map((c) => (
            <Column
              key={c.id}
              id={c.id}
              isRowHeader={c.rowHeader}
              allowsSorting={!!c.sortValue}
              className="table-column"
              aria-label={c.hideHeader ? c.header : undefined}
            >
              {({ allowsSorting, sortDirection }) =>
                c.hideHeader ? (
                  <span className="visually-hidden">{c.header}</span>
                ) : (
                  <span className="table-sort">
                    {c.header}
                    {allowsSorting && sortDirection && (sortDirection === 'ascending' ? <ArrowUp aria-hidden="true" /> : <ArrowDown aria-hidden="true" />)}
                  </span>
                )
              }
            </Column>
          ))}
        </TableHeader>
        <TableBody>
          {visible.map((row) => (
            <Row key={rowKey(row)} id={rowKey(row)} className="table-row">
              {columns.map((c) => (
                <Cell key={c.id} className="table-cell">
                  {c.cell(row)}
                </Cell>
              ))}
            </Row>
          ))}
        </TableBody>
      </AriaTable>
      {pages > 1 && (
        <nav className="pager" aria-label={t`Pages of ${label}`}>
          <span>{t`Page ${current + 1} of ${pages}`}</span>
          <Button variant="secondary" size="small" icon={ChevronLeft} isDisabled={current === 0} onPress={() => setPage(current - 1)}>
            {t`Previous`}
          </Button>
          <Button variant="secondary" size="small" icon={ChevronRight} isDisabled={current >= pages - 1} onPress={() => setPage(current + 1)}>
            {t`Next`}
          </Button>
        </nav>
      )}
    </div>
  );
}
