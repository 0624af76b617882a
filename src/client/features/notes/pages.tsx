import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export const NotesPage = placeholderPage(msg`Notes`);
export const NotePage = placeholderPage(msg`Note`);
