import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import type { ComponentType } from 'react';
import { Outlet } from 'react-router-dom';
import { PageTitle, Subpage } from './PageTitle';

/**
 * A screen that a later issue builds: for now it shows its translated title, and the screens
 * nested under it in the route tree. Replace the export with the real component when it exists.
 */
export function placeholderPage(title: MessageDescriptor): ComponentType {
  return function Placeholder() {
    const { i18n } = useLingui();
    return (
      <section className="page">
        <PageTitle title={i18n._(title)} />
        <Subpage>
          <Outlet />
        </Subpage>
      </section>
    );
  };
}
