/**
 * The stored message template library (docs/decisions/017-template-versions.md). Server-only: the page's
 * components are in ./components; the send path reads `getCurrentTemplate`.
 */
export { approveDemoTemplates, demoApprovalNote } from './server/approve-demo-templates';
export { ensureTemplateLibrary } from './server/ensure-template-library';
export { getCurrentTemplate } from './server/get-current-template';
export { listTemplateLibrary } from './server/list-template-library';
export { listTemplateVersions } from './server/list-template-versions';
export { editTemplatesRefusal, updateTemplate } from './server/update-template';
export { findTopTemplatesByPersona, topTemplatesPerPersona, type TopTemplatesByPersona } from './server/find-top-templates-by-persona';
export { getMessageExamplesPage, type LibraryCard, type MessageExamplesPage } from './server/get-message-examples-page';
export { previewTemplate } from './server/template-preview';
export {
  exampleRecord,
  templateUpdateSchema,
  type LibraryEntry,
  type PersonaTopTemplate,
  type PersonaTopTemplates,
  type StoredTemplate,
  type TemplateUpdate,
  type TemplatePreview,
  type TemplateUpdateInput,
  type TemplateVersionDto,
} from './schemas';
