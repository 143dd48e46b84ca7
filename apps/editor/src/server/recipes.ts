import { randomUUID } from "node:crypto";
import {
  BUILT_IN_RECIPES,
  type DefinitionLimitProblem,
  definitionLimitProblem,
  parsePipeline,
} from "@coauthor/agent-workflow/server";
import type { PipelineDefinition, PipelineIssue, RecipeInfo, RecipeSaveInput } from "@coauthor/types";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { getDb } from "./db";
import { recipes } from "./db/schema";

// Recipes: the built-in pipelines and the ones writers save, personal or shared on a document.
// A definition is validated before it is stored and again (from the stored text) before it runs.

/** The built-in recipes, parsed once (a broken one fails the first request, loudly). */
let parsedBuiltIns: { info: RecipeInfo; definition: PipelineDefinition }[] | undefined;

function builtIns() {
  parsedBuiltIns ??= BUILT_IN_RECIPES.map((recipe) => {
    const parsed = parsePipeline(recipe.yaml);
    if (!parsed.ok) throw new Error(`built-in recipe ${recipe.id} is invalid: ${parsed.issues[0]?.message}`);
    const info: RecipeInfo = {
      id: recipe.id,
      name: parsed.definition.name,
      description: parsed.definition.description,
      definition: recipe.yaml,
      builtIn: true,
      shared: true,
      editable: false,
    };
    return { info, definition: parsed.definition };
  });
  return parsedBuiltIns;
}

/** The saved recipes the caller may use on a document: their own, and those shared there. */
const visibleTo = (userId: string, documentId: string) =>
  or(and(eq(recipes.ownerId, userId), isNull(recipes.documentId)), eq(recipes.documentId, documentId));

/** What the caller sees on a document: the built-ins, their own recipes and those shared there. */
export async function listRecipes(userId: string, documentId: string): Promise<RecipeInfo[]> {
  const db = await getDb();
  const rows = await db.select().from(recipes).where(visibleTo(userId, documentId)).orderBy(recipes.name);
  return [
    ...builtIns().map((recipe) => recipe.info),
    ...rows.map((row) => {
      const parsed = parsePipeline(row.definition);
      return {
        id: row.id,
        name: row.name,
        description: parsed.ok ? parsed.definition.description : undefined,
        definition: row.definition,
        builtIn: false,
        shared: row.documentId !== null,
        editable: row.ownerId === userId,
      };
    }),
  ];
}

export type SaveResult =
  | { ok: true; recipe: RecipeInfo }
  | { ok: false; issues: PipelineIssue[] }
  | { ok: false; tooComplex: DefinitionLimitProblem }
  | { ok: false; notFound: true };

/**
 * Validates and stores a recipe (new, or a change to one of the caller's own). A definition past
 * the limits the parser is safe within (nesting, aliases, keys) is refused before it is parsed.
 */
export async function saveRecipe(userId: string, input: RecipeSaveInput): Promise<SaveResult> {
  const tooComplex = definitionLimitProblem(input.definition);
  if (tooComplex !== null) return { ok: false, tooComplex };
  const parsed = parsePipeline(input.definition);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const db = await getDb();
  const values = {
    name: parsed.definition.name,
    definition: input.definition,
    documentId: input.shared ? input.documentId : null,
  };
  let id = input.id;
  if (id) {
    const updated = await db
      .update(recipes)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(recipes.id, id), eq(recipes.ownerId, userId)))
      .returning({ id: recipes.id });
    if (updated.length === 0) return { ok: false, notFound: true };
  } else {
    id = `rcp_${randomUUID()}`;
    await db.insert(recipes).values({ id, ownerId: userId, ...values });
  }
  return {
    ok: true,
    recipe: {
      id,
      name: values.name,
      description: parsed.definition.description,
      definition: input.definition,
      builtIn: false,
      shared: input.shared,
      editable: true,
    },
  };
}

/** Deletes one of the caller's recipes; false when they have none with that id. */
export async function deleteRecipe(userId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const deleted = await db
    .delete(recipes)
    .where(and(eq(recipes.id, id), eq(recipes.ownerId, userId)))
    .returning({ id: recipes.id });
  return deleted.length > 0;
}

/** A recipe found for a run: its id (the pipeline records it) and its definition. */
export type FoundRecipe = { recipeId: string; definition: PipelineDefinition };

/**
 * The recipe a run asks for by id or, for scripts (`coauthor run --recipe "Review and revise"`),
 * by its name (any case): a built-in, one of the caller's own, or one shared on the document. Null
 * when none matches, none is valid, or a name matches more than one recipe.
 */
export async function findRecipe(
  userId: string,
  documentId: string,
  idOrName: string,
): Promise<FoundRecipe | null> {
  const byId = builtIns().find((recipe) => recipe.info.id === idOrName);
  if (byId) return { recipeId: byId.info.id, definition: byId.definition };
  const db = await getDb();
  const [row] = await db
    .select({ id: recipes.id, definition: recipes.definition })
    .from(recipes)
    .where(and(eq(recipes.id, idOrName), visibleTo(userId, documentId)));
  if (row) return parsedRecipe(row);
  const name = idOrName.toLowerCase();
  const builtInsNamed = builtIns().filter((recipe) => recipe.info.name.toLowerCase() === name);
  const savedNamed = await db
    .select({ id: recipes.id, definition: recipes.definition })
    .from(recipes)
    .where(and(visibleTo(userId, documentId), sql`lower(${recipes.name}) = ${name}`))
    .limit(2);
  if (builtInsNamed.length + savedNamed.length !== 1) return null;
  const [builtIn] = builtInsNamed;
  if (builtIn) return { recipeId: builtIn.info.id, definition: builtIn.definition };
  return parsedRecipe(savedNamed[0] as { id: string; definition: string });
}

function parsedRecipe(row: { id: string; definition: string }): FoundRecipe | null {
  const parsed = parsePipeline(row.definition);
  return parsed.ok ? { recipeId: row.id, definition: parsed.definition } : null;
}
