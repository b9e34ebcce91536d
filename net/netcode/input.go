package netcode

type inputRule interface {
	inputName() string
	schema() uint64
}
