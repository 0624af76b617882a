import { Download, Package, Pencil, Plus, Trash2, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { checkProduct, parsePriceCents, QUANTITY_MAX } from '../../../shared/domain/commerce';
import { trpc } from '../../trpc';
import { Button, ConfirmDialog, DataTable, EmptyState, FormError, FormNotice, IconButton, LoadingSkeleton, ModalDialog, PageHeader, RefusalState, TextField, type TableColumn } from '../../ui';
import { saveBlob } from '../forms/download';
import { useSettingsCompany } from '../settings/useSelectedCompany';
import { centsToInput, dateTimeBr, formatCents } from './format';

type Product = { id: string; code: string; name: string; quantity: number; priceCents: number; updatedAt: Date | string };

/**
 * /i/settings/products: the company's catalogue (Portuguese only, as the spec says): add, change
 * and remove products, import and export them as CSV, and see the latest sales. Admins only;
 * a company whose plan lacks stock control is told so.
 */
export function ProductsPage() {
  const selected = useSettingsCompany();
  if (selected.status === 'loading') return <LoadingSkeleton variant="table" />;
  if (selected.status !== 'ready') {
    return (
      <section className="page">
        <PageHeader title="Produtos" />
        {selected.status === 'error' ? <RefusalState title="Produtos" message={selected.message} /> : <EmptyState title="Escolha uma empresa primeiro." />}
      </section>
    );
  }
  if (!selected.company.isAdmin) {
    return (
      <section className="page">
        <PageHeader title="Produtos" />
        <RefusalState title={`Somente administradores de ${selected.company.name} gerenciam os produtos.`} />
      </section>
    );
  }
  return <Catalogue domain={selected.company.domain} />;
}

function Catalogue({ domain }: { domain: string }) {
  const utils = trpc.useUtils();
  const list = trpc.commerce.products.useQuery({ domain }, { retry: false });
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const [removing, setRemoving] = useState<Product | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const refresh = () => utils.commerce.products.invalidate({ domain });
  const remove = trpc.commerce.removeProduct.useMutation({
    onSuccess: () => {
      setNotice(`Produto “${removing?.name ?? ''}” removido`);
      setRemoving(null);
      void refresh();
    },
  });
  const importCsv = trpc.commerce.importCsv.useMutation({
    onSuccess: (r) => {
      setNotice(`Importação concluída: ${r.created} produto(s) novo(s), ${r.updated} atualizado(s)`);
      void refresh();
    },
    onError: (e) => setProblem(e.message),
  });

  async function exportCsv() {
    setProblem(null);
    try {
      const out = await utils.commerce.exportCsv.fetch({ domain }, { staleTime: 0 });
      saveBlob(new Blob([out.csv], { type: 'text/csv;charset=utf-8' }), out.fileName);
    } catch (e) {
      setProblem((e as Error).message);
    }
  }

  async function readFile(file: File | undefined) {
    if (!file) return;
    setNotice(null);
    setProblem(null);
    importCsv.mutate({ domain, csv: await file.text() });
    if (fileInput.current) fileInput.current.value = '';
  }

  const columns: TableColumn<Product>[] = [
    { id: 'code', header: 'Código', cell: (p) => p.code, sortValue: (p) => p.code },
    { id: 'name', header: 'Nome', cell: (p) => p.name, sortValue: (p) => p.name, rowHeader: true },
    { id: 'quantity', header: 'Quantidade', cell: (p) => p.quantity, sortValue: (p) => p.quantity },
    { id: 'price', header: 'Preço', cell: (p) => formatCents(p.priceCents), sortValue: (p) => p.priceCents },
    {
      id: 'actions',
      header: 'Ações',
      hideHeader: true,
      cell: (p) => (
        <span className="commerce-row-actions">
          <IconButton label={`Editar ${p.name}`} icon={Pencil} onPress={() => setEditing(p)} />
          <IconButton label={`Remover ${p.name}`} icon={Trash2} danger onPress={() => (remove.reset(), setRemoving(p))} />
        </span>
      ),
    },
  ];

  const refused = list.error?.data?.code === 'FORBIDDEN';
  return (
    <section className="page commerce-products" lang="pt-BR">
      <PageHeader
        title="Produtos"
        description="O catálogo usado nos orçamentos das conversas: código, nome, quantidade em estoque e preço."
        actions={
          !refused && (
            <>
              <Button variant="primary" icon={Plus} onPress={() => setEditing('new')}>
                Novo produto
              </Button>
              <Button variant="secondary" icon={Upload} onPress={() => fileInput.current?.click()} isPending={importCsv.isPending}>
                Importar CSV
              </Button>
              <Button variant="secondary" icon={Download} onPress={() => void exportCsv()}>
                Exportar CSV
              </Button>
            </>
          )
        }
      />
      <input
        ref={fileInput}
        type="file"
        accept=".csv,text/csv"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Arquivo CSV de produtos"
        data-testid="products-csv"
        onChange={(e) => void readFile(e.target.files?.[0])}
      />
      <FormError message={problem} />
      {notice && <FormNotice>{notice}</FormNotice>}
      {list.isPending ? (
        <LoadingSkeleton variant="table" />
      ) : refused ? (
        <RefusalState title="Controle de estoque" message={list.error!.message} />
      ) : list.error ? (
        <FormError message={list.error.message} />
      ) : (
        <DataTable
          label="Produtos"
          rows={list.data}
          rowKey={(p) => p.id}
          columns={columns}
          initialSort={{ column: 'name', direction: 'ascending' }}
          empty={<EmptyState icon={Package} title="Nenhum produto ainda" description="Cadastre um produto ou importe uma planilha CSV com as colunas codigo, nome, quantidade e preco." />}
        />
      )}
      {!refused && !list.isPending && <RecentSales domain={domain} />}
      {editing && <ProductDialog domain={domain} product={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={(name) => (setNotice(`Produto “${name}” salvo`), void refresh())} />}
      {removing && (
        <ConfirmDialog
          title={`Remover “${removing.name}”?`}
          confirmLabel="Remover"
          danger
          pending={remove.isPending}
          error={remove.error?.message ?? null}
          onConfirm={() => remove.mutate({ domain, productId: removing.id })}
          onCancel={() => setRemoving(null)}
        >
          <p>Orçamentos e vendas já feitos guardam sua própria cópia do produto.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function ProductDialog({ domain, product, onClose, onSaved }: { domain: string; product: Product | null; onClose: () => void; onSaved: (name: string) => void }) {
  const [code, setCode] = useState(product?.code ?? '');
  const [name, setName] = useState(product?.name ?? '');
  const [quantity, setQuantity] = useState(product ? String(product.quantity) : '0');
  const [price, setPrice] = useState(product ? centsToInput(product.priceCents) : '');
  const [error, setError] = useState<string | null>(null);
  const save = trpc.commerce.saveProduct.useMutation({
    onSuccess: (p) => {
      onSaved(p.name);
      onClose();
    },
    onError: (e) => setError(e.message),
  });
  function submit() {
    const checked = checkProduct({ code, name, quantity, price });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    save.mutate({ domain, ...(product && { productId: product.id }), ...checked.product });
  }
  const priceInvalid = price.trim() !== '' && parsePriceCents(price) === null;
  return (
    <ModalDialog
      title={product ? 'Editar produto' : 'Novo produto'}
      onCancel={onClose}
      onSubmit={submit}
      actions={
        <>
          <Button type="submit" variant="primary" isPending={save.isPending}>
            Salvar
          </Button>
          <Button variant="secondary" onPress={onClose}>
            Cancelar
          </Button>
        </>
      }
    >
      <FormError message={error} />
      <TextField label="Código" value={code} onChange={(e) => setCode(e.target.value)} required maxLength={40} autoFocus />
      <TextField label="Nome" value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} />
      <TextField label="Quantidade em estoque" value={quantity} onChange={(e) => setQuantity(e.target.value)} inputMode="numeric" hint={`De 0 a ${QUANTITY_MAX}`} />
      <TextField label="Preço (R$)" value={price} onChange={(e) => setPrice(e.target.value)} inputMode="decimal" placeholder="0,00" error={priceInvalid ? 'Preço inválido' : null} />
    </ModalDialog>
  );
}

function RecentSales({ domain }: { domain: string }) {
  const sales = trpc.commerce.sales.useQuery({ domain, limit: 20 }, { retry: false });
  if (!sales.data || sales.data.length === 0) return null;
  return (
    <section className="commerce-sales" aria-labelledby="commerce-sales-title">
      <h2 id="commerce-sales-title">Vendas recentes</h2>
      <DataTable
        label="Vendas recentes"
        rows={sales.data}
        rowKey={(s) => s.id}
        columns={[
          { id: 'date', header: 'Data', cell: (s) => <Link to={`/i/recent/sales/${s.id}`}>{dateTimeBr(s.createdAt)}</Link>, rowHeader: true },
          { id: 'customer', header: 'Cliente', cell: (s) => s.customerName },
          { id: 'items', header: 'Itens', cell: (s) => s.items },
          { id: 'total', header: 'Total', cell: (s) => formatCents(s.totalCents) },
        ]}
      />
    </section>
  );
}
