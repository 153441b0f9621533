import { z } from '../zod.js';
import { DEFAULT_CATEGORY } from '../enums.js';
import { boundedText, categoryField, limitQuery, optionalQuery, pageQuery, searchQuery, storableString } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';

const V = MESSAGES.validation;
const A = LIMITS.article;

const category = categoryField;

export const articleListQuery = z.object({
  search: searchQuery,
  category: optionalQuery(category),
  page: pageQuery,
  limit: limitQuery(LIMITS.articlePage.default, LIMITS.articlePage.max),
});
export type ArticleListQuery = z.infer<typeof articleListQuery>;

/** Keywords are trimmed, blank ones dropped and repeats removed (case-insensitively). */
const keywords = z
  .array(storableString('Keywords', V.keywordsInvalid).trim().max(A.keywords.maxLength, V.keywordsInvalid), {
    error: V.keywordsInvalid,
  })
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((k) => k !== '' && !seen.has(k.toLowerCase()) && seen.add(k.toLowerCase()));
  })
  .refine((list) => list.length <= A.keywords.maxCount, V.keywordsInvalid);

const articleFields = {
  title: boundedText({ required: V.titleRequired, ...A.title, tooShort: V.articleTitleTooShort, tooLong: V.articleTitleTooLong }),
  content: boundedText({ required: V.contentRequired, ...A.content, tooShort: V.contentTooShort, tooLong: V.contentTooLong }),
  category,
  keywords,
};

export const createArticleBody = z.object({
  ...articleFields,
  category: category.default(DEFAULT_CATEGORY),
  keywords: keywords.default([]),
});
export type CreateArticleBody = z.infer<typeof createArticleBody>;

export const updateArticleBody = z.object(articleFields).partial();
export type UpdateArticleBody = z.infer<typeof updateArticleBody>;
