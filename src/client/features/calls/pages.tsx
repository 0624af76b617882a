import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export const CallPage = placeholderPage(msg`Call`);
export const MeetingPage = placeholderPage(msg`Meeting`);
export const LivePage = placeholderPage(msg`Live session`);
