// One ajv (JSON Schema 2020-12 with formats) that knows every catalog schema by its file's URI and
// every contract document by its URI under contractsBaseUri, so `./schemas/x.json` and
// `#/components/...` references resolve exactly as they do for the generator.
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { apiContracts, catalogSchemaUri, contractsBaseUri, loadCatalogSchemas, loadContract, type ContractKey } from './contracts.js';

// ajv and ajv-formats are CommonJS with a default export; under NodeNext it sits on `.default`.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
export type Ajv = InstanceType<typeof Ajv2020>;

/** OpenAPI keywords and our vendor extensions that may stand inside a schema object. */
export const schemaAnnotationKeywords = [
  'example',
  'discriminator',
  'xml',
  'externalDocs',
  'x-assumption',
  'x-machine',
  'x-machine-events',
];

// The fields of an OpenAPI document's root (externalDocs is already an annotation above). ajv
// compiles a document's root whenever a fragment of it is referenced; declared as annotations,
// they make that root compile to a no-op, and only the referenced schemas are really compiled.
const openApiRootFields = [
  'openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks',
  'components', 'security', 'tags',
];

export function contractUri(family: ContractKey): string {
  return contractsBaseUri + apiContracts[family];
}

export function createContractAjv(families: ContractKey[] = ['v3', 'v1']): Ajv {
  // Union types (["string", "null"]) are how OpenAPI 3.1 writes nullable fields.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(schemaAnnotationKeywords);
  // Registered with their file's URI as `$id` (in memory only): ajv gives a schema reached through
  // a reference the referrer's base URI unless it names its own, and the files name none.
  for (const { file, schema } of loadCatalogSchemas()) ajv.addSchema({ ...schema, $id: catalogSchemaUri(file) });
  const documents = families.map((family) => ({ family, doc: loadContract(family) }));
  const rootExtensions = documents.flatMap(({ doc }) => Object.keys(doc).filter((key) => key.startsWith('x-')));
  ajv.addVocabulary([...new Set([...openApiRootFields, ...rootExtensions])]);
  for (const { family, doc } of documents) ajv.addSchema(doc, contractUri(family));
  return ajv;
}
