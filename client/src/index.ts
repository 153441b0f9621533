// The web client arrives with its own issue; this keeps the workspace buildable meanwhile.
export {};
