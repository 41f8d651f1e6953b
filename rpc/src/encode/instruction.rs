//! One instruction, in the two forms Agave writes: compiled (`UiCompiledInstruction`: key
//! indexes), and for jsonParsed (`UiInstruction`): parsed when its program is one Agave
//! parses and the data parses (`bstore_parsed`), else `UiPartiallyDecodedInstruction`
//! (program id and accounts as base58 keys, data as base58). Keys are resolved against the
//! transaction's full key list; an index past it (never in a sanitized transaction, possible
//! in a corrupt status) keeps the compiled form instead of failing the block.

use super::json::JsonOut;

/// `UiCompiledInstruction`: key indexes, base58 data, the stack height (`null` unknown).
pub(super) fn write_compiled_instruction(
    out: &mut JsonOut,
    program_id_index: u8,
    accounts: &[u8],
    data: &[u8],
    stack_height: Option<u32>,
) {
    out.raw("{\"programIdIndex\":");
    out.u64(u64::from(program_id_index));
    out.raw(",\"accounts\":");
    out.u8_array(accounts);
    out.raw(",\"data\":");
    out.b58(data);
    out.raw(",\"stackHeight\":");
    out.opt_u64(stack_height.map(u64::from));
    out.raw("}");
}

/// Writes one instruction given by key indexes into `keys`.
pub(super) fn write_parsed_instruction(
    out: &mut JsonOut,
    keys: &[&[u8; 32]],
    program_id_index: u8,
    accounts: &[u8],
    data: &[u8],
    stack_height: Option<u32>,
) {
    let program = keys.get(usize::from(program_id_index));
    let resolved: Option<Vec<&[u8; 32]>> = accounts
        .iter()
        .map(|&i| keys.get(usize::from(i)).copied())
        .collect();
    let (Some(program), Some(resolved)) = (program, resolved) else {
        write_compiled_instruction(out, program_id_index, accounts, data, stack_height);
        return;
    };
    if let Some(parsed) = parse_known(program, &resolved, data, stack_height) {
        out.raw(&parsed);
        return;
    }
    out.raw("{\"programId\":");
    out.b58(*program);
    out.raw(",\"accounts\":");
    out.array(&resolved, |out, key| out.b58(*key));
    out.raw(",\"data\":");
    out.b58(data);
    out.raw(",\"stackHeight\":");
    out.opt_u64(stack_height.map(u64::from));
    out.raw("}");
}

/// The parsed form (`ParsedInstruction` JSON text) when the program is one Agave parses.
fn parse_known(
    program: &[u8; 32],
    accounts: &[&[u8; 32]],
    data: &[u8],
    stack_height: Option<u32>,
) -> Option<String> {
    let accounts: Vec<[u8; 32]> = accounts.iter().map(|k| **k).collect();
    let parsed = bstore_parsed::parse_known(program, &accounts, data, stack_height)?;
    serde_json::to_string(&parsed).ok()
}
