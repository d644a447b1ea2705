export function _placeholder(): void {}
