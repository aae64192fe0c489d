// Every service's error codes, registered in this process so that this edge maps each code to its
// status (and renders it) once, whichever subgraph raised it.
import '../subgraphs/platform/error-codes.js';
import '../subgraphs/catalog/error-codes.js';
import '../subgraphs/search/error-codes.js';
import '../subgraphs/ai/error-codes.js';
