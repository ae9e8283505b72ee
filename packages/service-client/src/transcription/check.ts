import { TranscriptionError } from './errors.js';
import { parseTranscriptionParams, type TranscriptionParams } from './params.js';
import { type AudioFile, checkFileData, checkFileName } from './storage-upload.js';

/**
 * Checks the parameters (spec 2.7) and the file names together, before any call: every problem
 * is listed in one `ERR_TRANSCRIPTION_PARAMS_INVALID`.
 */
export function checkTranscription(
  params: TranscriptionParams,
  fileNames: readonly unknown[],
  files?: readonly AudioFile[],
): TranscriptionParams {
  const issues: string[] = [];
  let checked: TranscriptionParams | undefined;
  try {
    checked = parseTranscriptionParams(params);
  } catch (error) {
    if (!(error instanceof TranscriptionError)) throw error;
    issues.push(...error.issues);
  }
  if (fileNames.length === 0) issues.push('files must hold at least one audio file.');
  const seen = new Set<unknown>();
  fileNames.forEach((name, index) => {
    const problem = checkFileName(name) ?? (files ? checkFileData(files[index]?.data) : undefined);
    if (problem) issues.push(`files[${index}]: ${problem}`);
    else if (seen.has(name)) issues.push(`files[${index}]: the name ${JSON.stringify(name)} is used twice.`);
    seen.add(name);
  });
  if (issues.length > 0 || checked === undefined) {
    throw new TranscriptionError(
      'ERR_TRANSCRIPTION_PARAMS_INVALID',
      `Invalid transcription request: ${issues.join(' ')}`,
      { issues },
    );
  }
  return checked;
}
