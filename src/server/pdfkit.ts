import { lazyPackage } from './lazy-package';

/** pdfkit's PDFDocument, loaded on the first PDF (commerce documents, filled forms). */
export const pdfkit = lazyPackage<typeof import('pdfkit')>('pdfkit');
