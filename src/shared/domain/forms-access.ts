/**
 * Who may do what with a form template (spec 6 Forms; Member formsMembro):
 * - a private template is its creator's alone: to everyone else it does not exist;
 * - its creator, the members it names as editors (templateEditableFor) and the company's admins
 *   change it and export its submissions; only the creator makes it private or public again;
 *   the creator or an admin deletes it;
 * - which templates a member may fill in follows the member's formsMembro: every template, or the
 *   ones listed. Admins use every template.
 */
export interface TemplateFacts {
  creatorId: string | null;
  editorIds: readonly string[];
  isPrivate: boolean;
  deleted: boolean;
}

export interface MemberFacts {
  userId: string;
  isAdmin: boolean;
}

/** formsMembro: null (never set) means every template. */
export type MemberForms = { all: true } | { all: false; templateIds: readonly string[] };
export const ALL_FORMS: MemberForms = { all: true };

export interface TemplateRights {
  see: boolean;
  edit: boolean;
  use: boolean;
  export: boolean;
  remove: boolean;
  changePrivacy: boolean;
}

const NONE: TemplateRights = { see: false, edit: false, use: false, export: false, remove: false, changePrivacy: false };

export function templateRights(template: TemplateFacts & { id: string }, member: MemberFacts, forms: MemberForms | null): TemplateRights {
  if (template.deleted) return NONE;
  const creator = template.creatorId === member.userId;
  if (template.isPrivate && !creator) return NONE;
  const edit = creator || member.isAdmin || template.editorIds.includes(member.userId);
  const allowed = member.isAdmin || !forms || forms.all || forms.templateIds.includes(template.id);
  return { see: true, edit, use: allowed, export: edit, remove: creator || member.isAdmin, changePrivacy: creator };
}

/** Why someone who had a template open lost it; the client shows the spec's sentence and goes to /i/recent. */
export type TemplateLoss = 'private' | 'deleted';
export const TEMPLATE_LOSS_MESSAGES: Record<TemplateLoss, string> = {
  private: 'O formulário que você estava acessando foi privado pelo criador!',
  deleted: 'O formulário que você estava foi excluído!',
};
