import { useLingui } from '@lingui/react/macro';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { AppLink, type NavItem } from './AppLayout';

/**
 * AppLayout's 'More' drawer, in its own chunk: focus stays inside and returns to the button,
 * Escape or a click outside closes it, and so does following one of its links.
 */
export default function AppDrawer({ items, onClose }: { items: readonly NavItem[]; onClose: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && onClose()} className="modal-overlay app-drawer-overlay">
      <Modal className="modal app-drawer">
        <AriaDialog className="modal-dialog app-drawer-body" aria-label={t`More`}>
          <Heading slot="title" className="modal-dialog-title">
            {t`More`}
          </Heading>
          <div className="section-nav" onClick={(e) => (e.target as HTMLElement).closest('a') && onClose()}>
            {items.map((item) => (
              <AppLink key={item.to} item={item} label={i18n._(item.label)} />
            ))}
          </div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
