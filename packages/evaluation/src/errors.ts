import { InputError } from "@winnow/errors";

/** Labelled data that cannot be found or read: the message names the file (and line). */
export class LabelledDataError extends InputError {
  override readonly name: string = "LabelledDataError";
}
