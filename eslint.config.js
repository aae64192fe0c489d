import tseslint from 'typescript-eslint';

// Process boundaries are code boundaries (docs/architecture.md): the gateway and the REST bridge
// import only lib/ (and read schema/ at start); a subgraph imports only lib/ and its own folder,
// never another subgraph, the gateway or the bridge; lib/ imports nothing above it. Imports are
// relative, so a file `d` folders below its top folder leaves it with `d + 1` leading `../`; one
// block per depth names exactly where such a path may go.
const DEPTHS = [0, 1, 2, 3, 4, 5];
const SUBGRAPHS = ['ai', 'catalog', 'platform', 'search'];
const up = (n) => '(\\.\\./)'.repeat(n);
const restrict = (regex, message) => ({ rules: { 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] } });
const filesAt = (top, d) => [`${top}/${'*/'.repeat(d)}*.ts`];

const boundaries = [
  ...['gateway', 'rest-bridge'].flatMap((edge) =>
    DEPTHS.map((d) => ({
      files: filesAt(edge, d),
      ...restrict(`^${up(d + 1)}(?!lib/|schema/)`, `${edge}/ imports only lib/ and schema/ (and its own files): read what a subgraph declares from schema/contract.json (lib/contract.ts)`),
    })),
  ),
  ...SUBGRAPHS.flatMap((name) =>
    DEPTHS.map((d) => ({
      files: filesAt(`subgraphs/${name}`, d),
      ...restrict(`^${up(d + 1)}(?!${name}/|\\.\\./lib/|\\.\\./schema/)`, `subgraphs/${name} imports only lib/ and its own files: never another subgraph, gateway/ or rest-bridge/`),
    })),
  ),
  ...DEPTHS.map((d) => ({ files: filesAt('lib', d), ...restrict(`^${up(d + 1)}`, 'lib/ imports nothing above it') })),
];

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'dist/**', 'schema/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  ...boundaries,
);
