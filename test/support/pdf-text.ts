import { extractText, getDocumentProxy } from 'unpdf';

/** The text of a PDF, as a reader selects and searches it: every page, one line after another. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}
