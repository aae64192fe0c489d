// The combination of fastText lid.176, ELD and the letter/marker rules (subgraphs/ai/models/
// language.ts); the quality figure is the bench's (npm run bench:ai-quality).
import { LanguageIdentifier } from '../../../subgraphs/ai/models/language.js';
import { byMarkers, cyrillicByLetters, writtenIn } from '../../../subgraphs/ai/models/language.rules.js';

test('Cyrillic letters settle Serbian, Macedonian, Ukrainian and Belarusian; Russian and Bulgarian stay open', () => {
  expect(cyrillicByLetters('Добар дан, како сте? Ја сам добро.')).toBe('sr');
  expect(cyrillicByLetters('Ќе дојдам утре.')).toBe('mk');
  expect(cyrillicByLetters('Я їду додому.')).toBe('uk');
  expect(cyrillicByLetters('Я іду дадому ў суботу.')).toBe('be');
  expect(cyrillicByLetters('Я иду домой.')).toBeNull();
  expect(cyrillicByLetters('Hello')).toBeNull();
});

test('marker words decide Galician from Portuguese and Malay from Indonesian, and tie otherwise', () => {
  expect(byMarkers('Aínda non chegou a miña encomenda.', ['pt', 'gl', 'es'])).toBe('gl');
  expect(byMarkers('Ainda não chegou a minha encomenda.', ['pt', 'gl', 'es'])).toBe('pt');
  expect(byMarkers('Mesyuarat selepas makan tengah hari.', ['ms', 'id'])).toBe('ms');
  expect(byMarkers('Rapat setelah makan siang.', ['ms', 'id'])).toBe('id');
  expect(byMarkers('Saya makan nasi.', ['ms', 'id'])).toBeNull();
});

test('a guess in another script than the text is not taken', () => {
  expect(writtenIn('A xuntanza trasladouse ao xoves', 'el')).toBe(false);
  expect(writtenIn('Καλημέρα σας', 'el')).toBe(true);
  expect(writtenIn('会議は木曜日です', 'ja')).toBe(true);
});

test('the combined answer: Serbian Cyrillic is not Russian; Norwegian is not Danish; alternatives keep probabilities', async () => {
  const lid = await LanguageIdentifier.load();
  expect(lid.identify('Воз до аеродрома полази сваких двадесет минута.').language).toBe('sr');
  expect(lid.identify('Toget til flyplassen går hvert tjuende minutt.').language).toBe('no');
  const r = lid.identify('Me gustaría reservar una mesa para dos personas esta noche.', 3);
  expect(r).toMatchObject({ language: 'es', language_name: 'Spanish' });
  expect(r.alternatives).toHaveLength(3);
  expect(r.confidence).toBeGreaterThan(0.8);
});
