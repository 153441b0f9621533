import { CATEGORIES, LIMITS, createArticleBody, updateArticleBody, type Article, type Category } from '@helpdesk/protocol';
import { Button, Group, NativeSelect, Paper, Stack, TagsInput, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconEye, IconPencil } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { isApiError, screenMessage } from '../../api/ApiError';
import { knowledgeApi } from '../../api/knowledge';
import { queryKeys } from '../../api/queryKeys';
import { ErrorAlert } from '../../components/ErrorAlert';
import { notifySuccess } from '../../lib/notify';
import { CATEGORY_OPTIONS } from '../../components/CategoryChip';
import { MarkdownContent } from './MarkdownContent';
import { KNOWLEDGE_TEXT as T } from './texts';
import { schemaResolver } from '../../lib/schemaResolver';

// A type alias, not an interface: the zod resolver takes values as a plain record.
type ArticleFormValues = {
  title: string;
  category: Category;
  keywords: string[];
  content: string;
};

const A = LIMITS.article;

const valuesOf = (article?: Article): ArticleFormValues => ({
  title: article?.title ?? '',
  category: article?.category ?? CATEGORIES[0],
  keywords: article?.keywords ?? [],
  content: article?.content ?? '',
});

/**
 * Writes a new article, or changes `article`. The protocol schema checks the fields, so the form
 * shows the server's own messages; the cleaned values (trimmed, keywords de-duplicated) are sent.
 */
export function ArticleForm({ article }: { article?: Article }) {
  const schema = article ? updateArticleBody : createArticleBody;
  // 'first': each field shows its first problem, as the server answers ('Title is required', not the length rule).
  const form = useForm<ArticleFormValues>({ initialValues: valuesOf(article), validate: schemaResolver(schema) });
  const [tab, setTab] = useState<string | null>('write');
  const client = useQueryClient();
  const [, navigate] = useLocation();

  const save = useMutation({
    mutationFn: (values: ArticleFormValues) =>
      article ? knowledgeApi.update(article.id, updateArticleBody.parse(values)) : knowledgeApi.create(createArticleBody.parse(values)),
    onSuccess: ({ article: saved }) => {
      client.setQueryData(queryKeys.knowledge.detail(saved.id), { success: true, article: saved });
      void client.invalidateQueries({ queryKey: queryKeys.knowledge.all });
      notifySuccess(article ? T.updated : T.created);
      navigate(`/knowledge/${saved.id}`);
    },
    onError: (error) => {
      if (isApiError(error)) form.setErrors(error.fieldErrors);
    },
  });

  const submit = form.onSubmit(
    (values) => save.mutate(values),
    // The content box is hidden behind the preview; show it when it is what needs fixing.
    (errors) => errors.content && setTab('write'),
  );

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {save.isError && <ErrorAlert message={screenMessage(save.error, T.saveFallback)} error={save.error} />}
          <TextInput
            label="Title"
            withAsterisk
            description={`${A.title.min}-${A.title.max} characters`}
            maxLength={A.title.max}
            {...form.getInputProps('title')}
          />
          <Group grow align="flex-start" gap="md" wrap="wrap">
            <NativeSelect label="Category" withAsterisk data={CATEGORY_OPTIONS} miw={200} {...form.getInputProps('category')} />
            <TagsInput
              label="Keywords"
              description="Press Enter or comma after each keyword"
              placeholder="Add a keyword"
              maxTags={A.keywords.maxCount}
              clearable
              miw={260}
              {...form.getInputProps('keywords')}
            />
          </Group>
          <Tabs value={tab} onChange={setTab} variant="outline" keepMounted>
            <Tabs.List>
              <Tabs.Tab value="write" leftSection={<IconPencil size={16} />}>
                Write
              </Tabs.Tab>
              <Tabs.Tab value="preview" leftSection={<IconEye size={16} />}>
                Preview
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="write" pt="md">
              <Textarea
                label="Content"
                withAsterisk
                description="Markdown: # headings, **bold**, *italic*, - lists, [links](https://…), `code`"
                autosize
                minRows={12}
                maxRows={30}
                {...form.getInputProps('content')}
              />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="md">
              <Paper withBorder radius="md" p="lg" mih={200} data-testid="markdown-preview">
                {form.values.content.trim() ? (
                  <MarkdownContent>{form.values.content}</MarkdownContent>
                ) : (
                  <Text c="dimmed">Nothing to preview yet.</Text>
                )}
              </Paper>
            </Tabs.Panel>
          </Tabs>
          <Group justify="flex-end" gap="sm">
            <Button component={Link} href={article ? `/knowledge/${article.id}` : '/knowledge'} variant="default">
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} leftSection={<IconDeviceFloppy size={18} />}>
              {article ? 'Save Changes' : 'Create Article'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
