import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

/** /i/recent/feeds/:id and the company's public /:emp/feeds/:feedId */
export const FeedPage = placeholderPage(msg`Feed`);
/** /i/recent/feed/:id */
export const PostPage = placeholderPage(msg`Post`);
