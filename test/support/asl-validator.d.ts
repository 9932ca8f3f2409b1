// test support -> the types of asl-validator (it ships none): the one function the infra tests call.
declare module 'asl-validator' {
  interface AslValidation {
    isValid: boolean;
    errorsText(separator?: string): string;
  }
  export default function aslValidator(definition: unknown): AslValidation;
}
