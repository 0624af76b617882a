/**
 * The UI kit: every screen is built from these. Look lives here (ui/kit.css and ui/styles/, one
 * global stylesheet loaded by the app entry); feature folders compose the kit and add layout only.
 * See ui/README.md.
 */
export { Avatar, AVATAR_COLOURS, avatarColour, initialsOf, PresenceDot, type Presence } from './Avatar';
export { Badge, CountBadge, formatCount, type BadgeTone } from './Badge';
export { Button, ButtonLink, buttonClass, IconButton, IconLink, type ButtonProps, type ButtonVariant } from './Button';
export { Card, Facts } from './Card';
export { ConfirmDialog } from './ConfirmDialog';
export { Dialog, FullScreenLayer, ModalDialog } from './Dialog';
export { EmptyState, RefusalState } from './EmptyState';
export { Checkbox, CheckboxField, ComboBox, NumberField, RadioGroup, SelectField, Switch, TextAreaField, TextField } from './fields';
export { FormError, FormNotice, SubmitButton } from './Form';
export { MenuButton, MenuItem, MenuSeparator } from './Menu';
export { PageHeader } from './PageHeader';
export { PageTitle, Subpage } from './PageTitle';
export { LoadingSkeleton, Skeleton } from './Skeleton';
export { Spinner } from './Spinner';
export { DataTable, type TableColumn } from './Table';
export { Tab, TabList, TabPanel, Tabs } from './Tabs';
export { chooseTheme, storedTheme, type Theme } from './theme';
export { ThemeToggle } from './ThemeToggle';
export { toast, ToastRegion, useToasts, type ToastOptions, type ToastTone } from './Toast';
