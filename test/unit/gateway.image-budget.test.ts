// imageWorkCount (gateway/image-budget.ts): every image-work root field counts once per alias,
// through inline fragments and named fragments (each named fragment followed once per path).
import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { imageWorkCount } from '../../gateway/image-budget.js';

function count(doc: string): number {
  const d = parse(doc);
  const op = d.definitions.find((x): x is OperationDefinitionNode => x.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(d.definitions.filter((x): x is FragmentDefinitionNode => x.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  return imageWorkCount(op.selectionSet, fragments);
}

test('aliases, inline and named fragments count; other fields do not', () => {
  expect(count('mutation { a: imageClassify(input: {imageUrl: "x"}) { id } b: imageClassify(input: {imageUrl: "y"}) { id } moderateText(input: {text: "x"}) { id } }')).toBe(2);
  expect(count('mutation { ... on Mutation { imageOcr(input: {imageUrl: "x"}) { text } } ...F } fragment F on Mutation { imageDetect(input: {imageUrl: "x"}) { id } }')).toBe(2);
  expect(count('query { products { total } productImages(productId: "p") { id } }')).toBe(0);
  expect(count('query { visualProductSearch(imageUrl: "x") { total } }')).toBe(1);
});
