import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Fieldset,
  Group,
  List,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconFileUpload, IconPaperclip, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, useFieldArray, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { DOCUMENT_TYPES, MAX_DOCUMENT_BYTES } from '../../../../contract/entities.ts';
import { base64Head, documentRefusalOf } from '../../../../contract/file-type.ts';
import { formatBytes } from '../../../lib/format.ts';
import { needsReattaching } from '../onboarding-draft.ts';
import {
  firstErrorMessage,
  MAX_DOCUMENTS,
  type DocumentValues,
  type OnboardingFormValues,
} from '../onboarding-form.ts';
import { readFileAsBase64 } from '../read-file-as-base64.ts';
import { FormTextInput } from './form-fields.tsx';

/** Raw bytes of all documents together that stay within the server's 64 MB JSON body once base64-encoded. */
export const MAX_TOTAL_DOCUMENT_BYTES = 45 * 1024 * 1024;

interface FileBeingRead {
  key: string;
  name: string;
  size: number;
  loaded: number;
}

/** Why `file` cannot be attached next to documents of `otherBytes` in all, or null. */
function sizeProblemOf(file: File, otherBytes: number): string | null {
  if (file.size > MAX_DOCUMENT_BYTES)
    return `${file.name} is ${formatBytes(file.size)}; each document can be at most ${formatBytes(MAX_DOCUMENT_BYTES)}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (otherBytes + file.size > MAX_TOTAL_DOCUMENT_BYTES)
    return `${file.name} was not added: together the documents can be at most ${formatBytes(MAX_TOTAL_DOCUMENT_BYTES)}.`;
  return null;
}

/** The schema's own refusal of bytes that are not a document (an executable named .pdf included). */
function typeProblemOf(fileName: string, file64: string): string | null {
  const refusal = documentRefusalOf(base64Head(file64));
  return refusal ? `${fileName}: ${refusal}` : null;
}

export function SupportingDocumentsSection() {
  const { control, getValues } = useFormContext<OnboardingFormValues>();
  const { errors, isSubmitted } = useFormState({ control, name: 'supportingDocuments' });
  const { fields, append, remove, update } = useFieldArray({
    control,
    name: 'supportingDocuments',
    keyName: 'fieldKey',
  });
  const documents = useWatch({ control, name: 'supportingDocuments' });
  const [reading, setReading] = useState<FileBeingRead[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const openRef = useRef<() => void>(null);
  const unmounted = useRef<AbortController>(null);

  useEffect(() => {
    const controller = new AbortController();
    unmounted.current = controller;
    return () => controller.abort();
  }, []);

  async function read(file: File) {
    const key = crypto.randomUUID();
    setReading((current) => [...current, { key, name: file.name, size: file.size, loaded: 0 }]);
    try {
      const file64 = await readFileAsBase64(file, {
        signal: unmounted.current?.signal,
        onProgress: (loaded) =>
          setReading((current) =>
            current.map((entry) => (entry.key === key ? { ...entry, loaded } : entry)),
          ),
      });
      const typeProblem = typeProblemOf(file.name, file64);
      if (typeProblem) {
        setProblems((current) => [...current, typeProblem]);
        return;
      }
      append({
        key,
        fileName: file.name,
        type: '',
        description: '',
        mimeType: file.type,
        size: file.size,
        file: file64,
      });
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError'))
        setProblems((current) => [...current, `${file.name} could not be read. Attach it again.`]);
    } finally {
      setReading((current) => current.filter((entry) => entry.key !== key));
    }
  }

  /** Sizes are checked before anything is read, so a huge file costs nothing. */
  function addFiles(files: File[]) {
    const attached = getValues('supportingDocuments');
    let count = attached.length + reading.length;
    let total =
      attached.reduce((sum, document) => sum + document.size, 0) +
      reading.reduce((sum, entry) => sum + entry.size, 0);
    const found: string[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const problem =
        sizeProblemOf(file, total) ??
        (count >= MAX_DOCUMENTS
          ? `${file.name} was not added: at most ${MAX_DOCUMENTS} documents per entity.`
          : null);
      if (problem) {
        found.push(problem);
      } else {
        accepted.push(file);
        count += 1;
        total += file.size;
      }
    }
    setProblems(found);
    for (const file of accepted) void read(file);
  }

  /** Puts a file's bytes back into a restored document, keeping its type and description. */
  async function reattach(document: DocumentValues, file: File) {
    const others = getValues('supportingDocuments').filter((other) => other.key !== document.key);
    const problem = sizeProblemOf(
      file,
      others.reduce((sum, other) => sum + other.size, 0),
    );
    setProblems(problem ? [problem] : []);
    if (problem) return;
    try {
      const file64 = await readFileAsBase64(file, { signal: unmounted.current?.signal });
      const typeProblem = typeProblemOf(file.name, file64);
      if (typeProblem) {
        setProblems([typeProblem]);
        return;
      }
      // Found again by key: rows may have been removed while the file was read.
      const index = getValues('supportingDocuments').findIndex(
        (current) => current.key === document.key,
      );
      if (index === -1) return;
      update(index, {
        ...getValues(`supportingDocuments.${index}`),
        fileName: file.name,
        mimeType: file.type,
        size: file.size,
        file: file64,
      });
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError'))
        setProblems([`${file.name} could not be read. Attach it again.`]);
    }
  }

  return (
    <Stack gap="sm">
      <Dropzone
        onDrop={addFiles}
        openRef={openRef}
        activateOnClick={false}
        activateOnKeyboard={false}
        multiple
        inputProps={{ 'aria-label': 'Supporting document files' }}
      >
        <Group justify="center" gap="lg" mih={96} style={{ pointerEvents: 'none' }}>
          <Dropzone.Accept>
            <IconUpload size={40} stroke={1.5} aria-hidden />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={40} stroke={1.5} aria-hidden />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconFileUpload size={40} stroke={1.5} aria-hidden />
          </Dropzone.Idle>
          <div>
            <Text size="lg">Drop documents here</Text>
            <Text size="sm" c="dimmed">
              Up to {formatBytes(MAX_DOCUMENT_BYTES)} each and {MAX_DOCUMENTS} documents. Files are
              encoded in this browser and sent with the form.
            </Text>
          </div>
        </Group>
      </Dropzone>
      <Group>
        <Button
          variant="light"
          leftSection={<IconPaperclip size={16} aria-hidden />}
          onClick={() => openRef.current?.()}
        >
          Choose files
        </Button>
      </Group>

      {problems.length > 0 && (
        <Alert color="red" title="Some files were not attached" withCloseButton={false}>
          <List size="sm">
            {problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}

      {reading.map((entry) => {
        const percent = Math.round((entry.loaded / entry.size) * 100);
        return (
          <Stack key={entry.key} gap={4}>
            <Text size="sm">
              Reading {entry.name} ({formatBytes(entry.size)}): {percent}%
            </Text>
            <Progress value={percent} aria-label={`Reading ${entry.name}`} animated />
          </Stack>
        );
      })}

      {fields.map((field, index) => {
        const document = documents[index] ?? field;
        const rowErrors = errors.supportingDocuments?.[index];
        // Errors about the file itself (bytes, name, MIME type) have no input of their own.
        const fileError = firstErrorMessage([
          rowErrors?.file,
          rowErrors?.fileName,
          rowErrors?.mimeType,
        ]);
        return (
          <Fieldset key={field.fieldKey} legend={document.fileName}>
            <Text size="xs" c="dimmed" mb="xs">
              {formatBytes(document.size)}
              {document.mimeType ? ` · ${document.mimeType}` : ''}
            </Text>
            {needsReattaching(document) ? (
              <Group gap="sm" mb="xs" wrap="nowrap">
                <Text
                  size="sm"
                  c={isSubmitted ? 'red' : 'orange.9'}
                  role={isSubmitted ? 'alert' : undefined}
                >
                  The draft kept this document’s details but not the file: attach{' '}
                  {document.fileName} again.
                </Text>
                <FileButton
                  onChange={(file) => {
                    if (file) void reattach(document, file);
                  }}
                  inputProps={{ 'aria-label': `File for ${document.fileName}` }}
                >
                  {(props) => (
                    <Button
                      {...props}
                      size="xs"
                      variant="light"
                      leftSection={<IconPaperclip size={14} aria-hidden />}
                      aria-label={`Attach ${document.fileName} again`}
                    >
                      Attach again
                    </Button>
                  )}
                </FileButton>
              </Group>
            ) : (
              fileError && (
                <Text c="red" size="sm" mb="xs" role="alert">
                  {fileError}
                </Text>
              )
            )}
            <Group align="flex-end" wrap="nowrap" gap="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" style={{ flex: 1 }}>
                <Controller
                  control={control}
                  name={`supportingDocuments.${index}.type`}
                  render={({ field: typeField, fieldState }) => (
                    <Select
                      label="Document type"
                      required
                      placeholder="Choose a type"
                      data={DOCUMENT_TYPES}
                      value={typeField.value === '' ? null : typeField.value}
                      onChange={(value) => typeField.onChange(value ?? '')}
                      onBlur={typeField.onBlur}
                      ref={typeField.ref}
                      error={firstErrorMessage(fieldState.error)}
                    />
                  )}
                />
                <FormTextInput
                  name={`supportingDocuments.${index}.description`}
                  label="Description"
                />
              </SimpleGrid>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mb={4}
                aria-label={`Remove ${document.fileName}`}
                onClick={() => remove(index)}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Group>
          </Fieldset>
        );
      })}
    </Stack>
  );
}
