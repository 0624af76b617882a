import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { trpc } from '../../trpc';
import { Avatar } from '../../ui/Avatar';
import { ImageUpload } from '../../ui/ImageUpload';

/** The user's photo, or their initials until there is one. */
export function AvatarUpload({ userId, name, hasAvatar }: { userId: string; name: string; hasAvatar: boolean }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  // Bumped after each upload: the same URL must be fetched again.
  const [version, setVersion] = useState(0);
  return (
    <ImageUpload
      url="/uploads/avatar"
      pickLabel={t`Choose a photo`}
      progressLabel={t`Uploading photo`}
      onUploaded={async () => {
        setVersion((v) => v + 1);
        await utils.auth.me.invalidate();
      }}
      preview={
        hasAvatar || version > 0 ? (
          <img className="avatar-large" src={`/avatars/${userId}?v=${version}`} alt={t`Your photo`} />
        ) : (
          <Avatar name={name} seed={userId} size={88} />
        )
      }
    />
  );
}
