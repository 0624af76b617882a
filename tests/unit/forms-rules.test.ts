import { describe, expect, it } from 'vitest';
import { validateContactUs } from '../../src/shared/domain/contact-us-form';
import {
  answerText,
  checkFormValues,
  checkValue,
  formatPhone,
  formNameKey,
  initialValues,
  newField,
  templateProblems,
  type FormField,
} from '../../src/shared/domain/forms';
import { templateRights } from '../../src/shared/domain/forms-access';
import { csvCell, exportFileName, toCsv } from '../../src/shared/domain/forms-export';
import { exportColumns, planSave, sameFields } from '../../src/shared/domain/forms-versions';
import { templateFieldsSchema } from '../../src/shared/schemas/forms';

const field = (type: FormField['type'], over: Partial<FormField> = {}): FormField => ({ ...newField(over.id ?? type, type, over.label ?? type), ...over });
const words = { yes: 'Sim', no: 'Não' };

describe('field validation: the Contact Us rules', () => {
  it('gives text answers exactly the Contact Us verdicts (required, e-mail, min and max size)', () => {
    const cases: [Partial<FormField>, string][] = [
      [{ required: true }, ''],
      [{ validateEmail: true }, 'not-an-email'],
      [{ validateEmail: true }, 'ana@example.com'],
      [{ minSize: 3 }, 'ab'],
      [{ maxSize: 5 }, 'abcdef'],
      [{ minSize: 2, maxSize: 4 }, ' abc '],
    ];
    for (const [over, value] of cases) {
      const f = field('shortText', over);
      const contactUs = validateContactUs(
        [{ key: 'v', label: f.label, required: f.required, validateEmail: f.validateEmail, readOnly: false, minSize: f.minSize ?? 0, maxSize: f.maxSize ?? 200 }],
        [],
        { v: value },
      );
      const expected = contactUs.ok ? null : contactUs.errors.v;
      expect(checkValue(f, value, 'submit'), JSON.stringify([over, value])).toBe(expected ?? null);
    }
  });

  it('requires answers only on submit, and never for read-only fields', () => {
    const required = field('shortText', { required: true });
    expect(checkValue(required, '', 'draft')).toBeNull();
    expect(checkValue(required, '  ', 'submit')).toBe('required');
    expect(checkValue(field('checkbox', { required: true }), false, 'submit')).toBe('required');
    expect(checkValue(field('multipleChoice', { required: true, options: ['a'] }), [], 'submit')).toBe('required');
    expect(checkValue(field('shortText', { required: true, readOnly: true }), '', 'submit')).toBeNull();
  });

  it('an e-mail field always checks the address; a text field caps at its type maximum', () => {
    expect(checkValue(field('email'), 'ana@', 'submit')).toBe('email');
    expect(checkValue(field('email'), 'ana@example.com', 'submit')).toBeNull();
    expect(checkValue(field('shortText', { maxSize: 100_000 }), 'x'.repeat(201), 'submit')).toBe('tooLong');
    expect(checkValue(field('longText'), 'x'.repeat(5000), 'submit')).toBeNull();
    expect(checkValue(field('shortText'), ['a'], 'submit')).toBe('invalid');
  });

  it('numbers: plain or with a decimal comma, within min and max as values', () => {
    const n = field('number', { minSize: 0, maxSize: 10 });
    expect(checkValue(n, '3,5', 'submit')).toBeNull();
    expect(checkValue(n, 7, 'submit')).toBeNull();
    expect(checkValue(n, '1e3', 'submit')).toBe('notANumber');
    expect(checkValue(n, 'abc', 'submit')).toBe('notANumber');
    expect(checkValue(n, -1, 'submit')).toBe('tooSmall');
    expect(checkValue(n, '10.5', 'submit')).toBe('tooLarge');
  });

  it('dates must exist, times are HH:MM', () => {
    expect(checkValue(field('date'), '2026-02-28', 'submit')).toBeNull();
    expect(checkValue(field('date'), '2026-02-30', 'submit')).toBe('notADate');
    expect(checkValue(field('date'), '28/02/2026', 'submit')).toBe('notADate');
    expect(checkValue(field('time'), '23:59', 'submit')).toBeNull();
    expect(checkValue(field('time'), '24:00', 'submit')).toBe('notATime');
  });

  it('phones with the Brazilian mask are stored as digits with the country code and shown masked', () => {
    const f = field('phone');
    expect(checkValue(f, '(11) 98765-4321', 'submit')).toBeNull();
    expect(checkValue(f, '12345', 'submit')).toBe('notAPhone');
    const checked = checkFormValues([f], { phone: '(11) 98765-4321' }, 'submit');
    expect(checked).toEqual({ ok: true, values: { phone: '5511987654321' } });
    expect(formatPhone('5511987654321')).toBe('(11) 98765-4321');
    expect(formatPhone('14155550100')).toBe('+14155550100');
    expect(formatPhone('551133334444')).toBe('(11) 3333-4444');
    expect(answerText(f, '5511987654321', words)).toBe('(11) 98765-4321');
  });

  it('choices: only the options, each once; multiple choice counts min and max choices', () => {
    const single = field('singleChoice', { options: ['Sim', 'Não'] });
    expect(checkValue(single, 'Talvez', 'submit')).toBe('notAnOption');
    expect(checkValue(single, 'Sim', 'submit')).toBeNull();
    const multi = field('multipleChoice', { options: ['a', 'b', 'c'], minSize: 2, maxSize: 2 });
    expect(checkValue(multi, ['a'], 'submit')).toBe('tooFewChoices');
    expect(checkValue(multi, ['a'], 'draft')).toBeNull();
    expect(checkValue(multi, ['a', 'b', 'c'], 'submit')).toBe('tooManyChoices');
    expect(checkValue(multi, ['a', 'a'], 'submit')).toBe('notAnOption');
    expect(checkValue(multi, ['a', 'x'], 'submit')).toBe('notAnOption');
    expect(answerText(multi, ['a', 'c'], words)).toBe('a; c');
  });

  it('files, images and signatures are stored objects; images must be images', () => {
    const file = { key: 'k', name: 'laudo.pdf', size: 10, mime: 'application/pdf' };
    expect(checkValue(field('file'), file, 'submit')).toBeNull();
    expect(checkValue(field('file'), 'laudo.pdf', 'submit')).toBe('notAFile');
    expect(checkValue(field('image'), file, 'submit')).toBe('notAnImage');
    expect(checkValue(field('signature'), { ...file, mime: 'image/png' }, 'submit')).toBeNull();
    expect(answerText(field('file'), file, words)).toBe('laudo.pdf');
  });

  it('checkFormValues keeps read-only values, drops unknown answers and reports every failing field', () => {
    const fields = [
      field('heading', { label: 'Dados' }),
      field('shortText', { id: 'nome', required: true }),
      field('shortText', { id: 'politica', readOnly: true, defaultValue: 'v3' }),
      field('checkbox', { id: 'aceite', required: true }),
    ];
    expect(checkFormValues(fields, { nome: ' Ana ', politica: 'hacked', aceite: true, stranger: 'x' }, 'submit')).toEqual({
      ok: true,
      values: { nome: 'Ana', politica: 'v3', aceite: true },
    });
    expect(checkFormValues(fields, { nome: '', aceite: false }, 'submit')).toEqual({ ok: false, errors: { nome: 'required', aceite: 'required' } });
    expect(initialValues(fields)).toEqual({ politica: 'v3' });
    expect(answerText(fields[3]!, undefined, words)).toBe('Não');
  });
});

describe('template rules', () => {
  it('names compare trimmed and case-insensitively', () => {
    expect(formNameKey('  Ficha de Atendimento ')).toBe(formNameKey('ficha de atendimento'));
  });

  it('finds what makes a template unsavable', () => {
    expect(templateProblems([field('heading')])).toEqual([{ field: null, problem: 'noFields' }]);
    expect(templateProblems([field('shortText', { id: 'a' }), field('longText', { id: 'a' })])).toContainEqual({ field: 'a', problem: 'duplicateId' });
    expect(templateProblems([field('shortText', { label: ' ' })])).toContainEqual({ field: 'shortText', problem: 'noLabel' });
    expect(templateProblems([field('singleChoice')])).toContainEqual({ field: 'singleChoice', problem: 'noOptions' });
    expect(templateProblems([field('multipleChoice', { options: ['A', 'a'] })])).toContainEqual({ field: 'multipleChoice', problem: 'duplicateOption' });
    expect(templateProblems([field('shortText', { minSize: 5, maxSize: 2 })])).toContainEqual({ field: 'shortText', problem: 'minAboveMax' });
    expect(templateProblems([field('date', { minSize: 1 })])).toContainEqual({ field: 'date', problem: 'sizeNotAllowed' });
    expect(templateProblems([field('email', { readOnly: true, defaultValue: 'nope' })])).toContainEqual({ field: 'email', problem: 'badDefault' });
    expect(templateProblems([field('shortText'), field('singleChoice', { options: ['x'] })])).toEqual([]);
  });

  it('the input schema turns those problems into validation errors', () => {
    expect(templateFieldsSchema.safeParse([{ id: 'a', type: 'singleChoice', label: 'Q' }]).success).toBe(false);
    const ok = templateFieldsSchema.safeParse([{ id: 'a', type: 'shortText', label: 'Q' }]);
    expect(ok.success && ok.data[0]).toMatchObject({ required: false, minSize: null, options: [] });
  });
});

describe('template versioning', () => {
  const v1 = [field('shortText', { id: 'nome', label: 'Nome' }), field('date', { id: 'quando', label: 'Quando' })];

  it('a change to an unused version rewrites it; to a used one, makes the next version', () => {
    const changed = [v1[0]!, { ...v1[1]!, required: true }];
    expect(planSave({ version: 1, name: 'Ficha', fields: v1, used: false }, { name: 'Ficha', fields: changed })).toEqual({ kind: 'rewrite', version: 1 });
    expect(planSave({ version: 1, name: 'Ficha', fields: v1, used: true }, { name: 'Ficha', fields: changed })).toEqual({ kind: 'newVersion', version: 2 });
  });

  it('a rename is a change a filled form shows; saving the same content is not', () => {
    expect(planSave({ version: 3, name: 'Ficha', fields: v1, used: true }, { name: 'Ficha 2', fields: v1 })).toEqual({ kind: 'newVersion', version: 4 });
    const reordered = v1.map((f) => Object.fromEntries(Object.entries(f).reverse()) as unknown as FormField);
    expect(sameFields(v1, reordered)).toBe(true);
    expect(planSave({ version: 3, name: 'Ficha', fields: v1, used: true }, { name: 'Ficha', fields: reordered })).toEqual({ kind: 'unchanged', version: 3 });
    expect(sameFields(v1, [v1[1]!, v1[0]!])).toBe(false);
  });

  it('exports one column per question over every version, newest labels first', () => {
    const v2 = [field('shortText', { id: 'nome', label: 'Nome completo' }), field('heading', { id: 'h' }), field('phone', { id: 'tel', label: 'Telefone' })];
    expect(exportColumns([{ version: 2, fields: v2 }, { version: 1, fields: v1 }])).toEqual([
      { fieldId: 'nome', label: 'Nome completo', type: 'shortText' },
      { fieldId: 'tel', label: 'Telefone', type: 'phone' },
      { fieldId: 'quando', label: 'Quando', type: 'date' },
    ]);
  });
});

describe('template rights', () => {
  const t = { id: 't1', creatorId: 'ana', editorIds: ['bia'], isPrivate: false, deleted: false };
  const member = (userId: string, isAdmin = false) => ({ userId, isAdmin });

  it('creator, editors and admins edit and export; others only use', () => {
    expect(templateRights(t, member('ana'), null)).toMatchObject({ edit: true, export: true, remove: true, changePrivacy: true });
    expect(templateRights(t, member('bia'), null)).toMatchObject({ edit: true, export: true, remove: false, changePrivacy: false });
    expect(templateRights(t, member('adm', true), null)).toMatchObject({ edit: true, export: true, remove: true, changePrivacy: false });
    expect(templateRights(t, member('caio'), null)).toEqual({ see: true, edit: false, use: true, export: false, remove: false, changePrivacy: false });
  });

  it('a private template is its creator alone; a deleted one is nobody', () => {
    expect(templateRights({ ...t, isPrivate: true }, member('bia'), null).see).toBe(false);
    expect(templateRights({ ...t, isPrivate: true }, member('adm', true), null).see).toBe(false);
    expect(templateRights({ ...t, isPrivate: true }, member('ana'), null).edit).toBe(true);
    expect(templateRights({ ...t, deleted: true }, member('ana'), null).see).toBe(false);
  });

  it('formsMembro limits which templates a member uses; admins use all', () => {
    expect(templateRights(t, member('caio'), { all: false, templateIds: ['other'] }).use).toBe(false);
    expect(templateRights(t, member('caio'), { all: false, templateIds: ['t1'] }).use).toBe(true);
    expect(templateRights(t, member('adm', true), { all: false, templateIds: [] }).use).toBe(true);
  });
});

describe('export', () => {
  it('CSV cells are quoted when needed and never start a formula', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('diz "oi"')).toBe('"diz ""oi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+5511')).toBe("'+5511");
    expect(toCsv([['a', 'b'], ['1', 'linha\nnova']])).toBe('\uFEFFa,b\r\n1,"linha\nnova"\r\n');
    expect(exportFileName('Ficha de Atenção / 2', 'csv')).toBe('Ficha-de-Atencao-2.csv');
  });
});
