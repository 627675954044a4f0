/** The parts of pelias-parser (CommonJS, untyped) that server/geocode/parse.ts uses. */
declare module "pelias-parser/parser/AddressParser" {
  import type Tokenizer from "pelias-parser/tokenization/Tokenizer";
  export default class AddressParser {
    classify(tokenizer: Tokenizer): void;
    solve(tokenizer: Tokenizer): void;
  }
}

declare module "pelias-parser/tokenization/Tokenizer" {
  export interface SolutionPair {
    classification: { label: string };
    span: { body: string; start: number; end: number };
  }
  export default class Tokenizer {
    constructor(text: string);
    solution: { score: number; pair: SolutionPair[] }[];
  }
}
