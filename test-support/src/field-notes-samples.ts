// The service documentation's samples, as recorded in the field notes (shared key 5821234562344567): the inspector and inspect-core tests read them.
export const DOC_KEY = '5821234562344567';
export const DOC_PLAINTEXT = { aadhaar_number: '123456789012' };
export const JWCRYPTO_REQUEST =
  '{"protected": "eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0", "iv": "oAvH6vVV_UYK7vrYsj2b8A", "ciphertext": "T0jZQGWh6WP_TMz_1aUyqm06FGxi8FdQVK-0eleFDD7OBhxr3Bt2a1gt4OtbpuSn", "tag": "LW3ikoOIGvtDY4TeH_ezfg"}';
export const DOTNET_REQUEST =
  '{"protected": "eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0", "iv": "-xRt08Nui-LIEUhYMaAODg", "ciphertext": "IMCGMlpPmV2DMkYJMeqLqlGj4pL74OZn-koLVNyDESrJU_LE6fnJJhrorRwBoIyh", "tag": "TAi3Yok9KU0FLTSL0WEWnQ"}';
export const FULL_TAG_RESPONSE =
  '{"ciphertext": "SXNXEHqvd9PT15ELzuGScYNUS7RwXP9H3yqWl-Mml6bgwNdWoV3OdZ-Nuzz6C0tHX12Z82VnOL6q5_40vuIxDA", "iv": "oAvH6vVV_UYK7vrYsj2b8A", "tag": "kOLTuvgzaoxeN79DtGva_6Kf5FlpccclESO0XzoJZ2Y"}';
