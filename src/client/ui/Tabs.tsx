import {
  Tab as AriaTab,
  TabList as AriaTabList,
  TabPanel as AriaTabPanel,
  Tabs as AriaTabs,
  type TabListProps,
  type TabPanelProps,
  type TabProps,
  type TabsProps,
} from 'react-aria-components';

/**
 * Tabs (React Aria): arrow keys move between tabs, the panel follows. A Tab with `href` is a link
 * (routes as tabs); give Tabs `selectedKey` from the route then.
 *   <Tabs><TabList aria-label="…"><Tab id="a">A</Tab>…</TabList><TabPanel id="a">…</TabPanel></Tabs>
 */
export function Tabs(props: Omit<TabsProps, 'className'>) {
  return <AriaTabs {...props} className="tabs" />;
}

export function TabList<T extends object>(props: Omit<TabListProps<T>, 'className'>) {
  return <AriaTabList {...props} className="tab-list" />;
}

export function Tab(props: Omit<TabProps, 'className'>) {
  return <AriaTab {...props} className="tab" />;
}

export function TabPanel(props: Omit<TabPanelProps, 'className'>) {
  return <AriaTabPanel {...props} className="tab-panel" />;
}
