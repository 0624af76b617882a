import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export const TopUpPage = placeholderPage(msg`Add credits`);
export const StatementPage = placeholderPage(msg`Statement`);
