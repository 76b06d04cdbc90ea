// Research and lookalikes in the sandbox (docs/research.md): briefings, questions, similar
// companies and contacts, recommended contacts, and the AI action credits research spends.
export { researchRoutes } from "./routes.js";
export { productionResearchRoutes } from "./production.js";
export { createAiCreditStore, DEFAULT_AI_CREDITS, type AiCreditStore } from "./aiCredits.js";
