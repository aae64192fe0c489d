// The placeholder grammar of ai.md (Prompts): every pattern and transform of the spec's tables,
// chaining, and the errors that name the missing placeholder.
import { MissingPlaceholder, placeholderNames, render, TemplateError, validateTemplate } from '../../../subgraphs/ai/prompts/prompt.template.js';
import { PROMPT_LIBRARY } from '../../../subgraphs/ai/prompts/prompt.library.js';

const r = (t: string, v: Record<string, any>) => render(t, v).text;

test('simple, nested field, index, index then field', () => {
  const v = { name: 'Ada', user: { email: 'ada@example.com', address: { city: 'London' } }, items: ['tea', 'cake'], steps: [{ title: 'Boil' }, { title: 'Pour' }] };
  expect(r('Hi {{name}} <{{user.email}}> in {{user.address.city}}', v)).toBe('Hi Ada <ada@example.com> in London');
  expect(r('{{items[0]}} and {{items[1]}}', v)).toBe('tea and cake');
  expect(r('{{steps[1].title}}', v)).toBe('Pour');
  expect(r('{{ name }}', v)).toBe('Ada');
});

test('arrays: newline-joined without transform; bullets, numbered, join, length, first, last, field', () => {
  const v = { items: ['a', 'b', 'c'], steps: [{ title: 'Boil', t: 3 }, { title: 'Pour', t: 1 }] };
  expect(r('{{items}}', v)).toBe('a\nb\nc');
  expect(r('{{items|bullets}}', v)).toBe('- a\n- b\n- c');
  expect(r('{{items|numbered}}', v)).toBe('1. a\n2. b\n3. c');
  expect(r('{{items|join:, }}', v)).toBe('a, b, c');
  expect(r('{{items|join: and }}', v)).toBe('a and b and c');
  expect(r('{{items|join:\\n}}', v)).toBe('a\nb\nc');
  expect(r('{{items|length}}', v)).toBe('3');
  expect(r('{{items|first}}/{{items|last}}', v)).toBe('a/c');
  expect(r('{{steps|field:title}}', v)).toBe('Boil\nPour');
});

test('transforms chain left to right', () => {
  const v = { steps: [{ title: 'Boil' }, { title: 'Pour' }, { title: 'Stir' }] };
  expect(r('{{steps|field:title|numbered}}', v)).toBe('1. Boil\n2. Pour\n3. Stir');
  expect(r('{{steps|field:title|join: → }}', v)).toBe('Boil → Pour → Stir');
  expect(r('{{steps|field:title|last}}', v)).toBe('Stir');
  expect(r('{{steps|field:title|length}}', v)).toBe('3');
});

test('placeholders_used lists root names once, in order; objects render as JSON; numbers as text', () => {
  const out = render('{{b}} {{a.x}} {{b}} {{n}} {{o}}', { a: { x: 1 }, b: 'B', n: 2.5, o: { k: 'v' } });
  expect(out).toEqual({ text: 'B 1 B 2.5 {"k":"v"}', used: ['b', 'a', 'n', 'o'] });
  expect(placeholderNames('{{x.y}} {{z|bullets}} {{x}}')).toEqual(['x', 'z']);
});

test('a missing value names the placeholder path', () => {
  const miss = (t: string, v: Record<string, any>) => {
    try {
      render(t, v);
    } catch (e) {
      expect(e).toBeInstanceOf(MissingPlaceholder);
      return (e as MissingPlaceholder).placeholder;
    }
    throw new Error('no error');
  };
  expect(miss('{{name}}', {})).toBe('name');
  expect(miss('{{user.email}}', { user: {} })).toBe('user.email');
  expect(miss('{{items[2]}}', { items: ['a'] })).toBe('items[2]');
  expect(miss('{{steps[0].title}}', { steps: [{}] })).toBe('steps[0].title');
  expect(miss('{{steps|field:title}}', { steps: [{ title: 'x' }, {}] })).toBe('steps[1].title');
});

test('bad syntax and unknown transforms are TemplateErrors (caught at creation)', () => {
  expect(() => validateTemplate('{{items|shout}}')).toThrow(TemplateError);
  expect(() => validateTemplate('{{items|join}}')).toThrow(/separator/);
  expect(() => validateTemplate('{{items|field:}}')).toThrow(/name/);
  expect(() => validateTemplate('{{1abc}}')).toThrow(TemplateError);
  expect(() => validateTemplate('{{a..b}}')).toThrow(TemplateError);
  expect(() => validateTemplate('plain {{a.b[0]|bullets|join:;}}')).not.toThrow();
});

test('the library has the 10 templates of the spec, each valid, with stable UUIDs', () => {
  expect(PROMPT_LIBRARY.map((p) => p.name)).toEqual(['Freeform', 'Persona Agent', 'Structured Output', 'Chain of Thought', 'Few-Shot Learning', 'Self-Critique', 'RAG Context', 'Research Query', 'Fact Check', 'Knowledge Generation']);
  for (const p of PROMPT_LIBRARY) {
    expect(() => validateTemplate(p.content)).not.toThrow();
    expect(p.uniqueId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
  expect(new Set(PROMPT_LIBRARY.map((p) => p.uniqueId)).size).toBe(10);
});
