import { describe, expect, it } from 'vitest';
import { htmlToPlain, plainToHtml } from '../../src/server/modules/channels/mail-html';
import { stripQuoted } from '../../src/shared/domain/email';

describe('HTML in the e-mail channel', () => {
  it('an HTML body becomes plain text: no markup, scripts, styles or images; entities decoded; links kept as addresses', () => {
    const text = htmlToPlain(
      '<html><head><style>p{color:red}</style><title>t</title></head><body><p>Ol&aacute; <b>equipe</b>,</p>' +
        '<p>Veja <a href="https://x.test/p">o pedido</a> e <a href="https://y.test">https://y.test</a></p>' +
        '<img src="cid:logo" alt="logo"><script>alert(1)</script><p>&lt;script&gt; fica texto</p></body></html>',
    );
    expect(text).toBe('Olá equipe,\n\nVeja o pedido [https://x.test/p] e https://y.test\n\n<script> fica texto');
    expect(text).not.toMatch(/alert|color:red|logo|<b>/);
  });

  it('a quoted earlier message is rendered as "> " lines, so the quote is still cut off', () => {
    const text = htmlToPlain('<div>Pode ser amanhã.</div><div>Em seg., 1 de dez., Loja escreveu:<blockquote><p>Quando entregamos?</p></blockquote></div>');
    expect(stripQuoted(text)).toBe('Pode ser amanhã.');
  });

  it('a reply as HTML: escaped, paragraphs and line breaks kept, addresses linked', () => {
    const html = plainToHtml('Oi <Ana> & cia,\nsegue.\n\nVeja https://a.test/x?y=1&z=2.');
    expect(html).toContain('Oi &lt;Ana&gt; &amp; cia,<br>segue.</p>');
    expect(html).toContain('<a href="https://a.test/x?y=1&amp;z=2">https://a.test/x?y=1&amp;z=2</a>.');
    expect(html).not.toContain('<Ana>');
  });
});
