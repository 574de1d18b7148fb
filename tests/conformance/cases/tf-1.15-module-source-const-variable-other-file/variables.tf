variable "src" {
  type    = string
  default = "./child"
  const   = true
}
